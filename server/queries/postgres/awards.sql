-- The SQL of server/src/modules/awards/repo.ts on postgres (server/test/sql-snapshots.test.ts writes this file).

-- awards.autoAwardGrades(questionId)
select
  "team_id",
  "rank"
from
  "grades"
where
  "question_id" = $1
  and "award_manual" = $2;

-- awards.awardLevelsOf(questionId)
select
  *
from
  "award_levels"
where
  "question_id" = $1
order by
  "sort",
  "id";

-- awards.deleteAwardLevels(ids)
update "grades"
set
  "award_id" = $1,
  "award_manual" = $2
where
  "award_id" in ($3);
delete from "award_levels"
where
  "id" in ($1);

-- awards.findTeam(teamId)
select
  "id",
  "competition_id"
from
  "teams"
where
  "id" = $1;

-- awards.gradeAward(questionId, teamId)
select
  "award_id",
  "award_manual"
from
  "grades"
where
  "question_id" = $1
  and "team_id" = $2;

-- awards.insertAwardLevel(questionId, values)
insert into
  "award_levels" (
    "question_id",
    "name",
    "sort",
    "rank_from",
    "rank_to"
  )
values
  ($1, $2, $3, $4, $5);

-- awards.parkAwardLevelName(id)
update "award_levels"
set
  "name" = $1
where
  "id" = $2;

-- awards.setAward(questionId, teamId, v)
update "grades"
set
  "award_id" = $1,
  "award_manual" = $2
where
  "question_id" = $3
  and "team_id" = $4;

-- awards.teamAwardRows(teamId)
select
  "g"."question_id",
  "q"."title" as "question_title",
  "c"."id" as "competition_id",
  "c"."name" as "competition_name",
  "l"."name" as "award_name",
  "g"."final_score",
  "g"."rank"
from
  "grades" as "g"
  inner join "award_levels" as "l" on "l"."id" = "g"."award_id"
  inner join "questions" as "q" on "q"."id" = "g"."question_id"
  inner join "competitions" as "c" on "c"."id" = "q"."competition_id"
  inner join "review_rules" as "r" on "r"."question_id" = "g"."question_id"
where
  "g"."team_id" = $1
  and "r"."grade_state" = $2
order by
  "q"."sort",
  "q"."id";

-- awards.updateAwardLevel(id, values)
update "award_levels"
set
  "name" = $1,
  "sort" = $2,
  "rank_from" = $3,
  "rank_to" = $4
where
  "id" = $5;
