-- The SQL of server/src/modules/awards/repo.ts on sqlite (server/test/sql-snapshots.test.ts writes this file).

-- awards.autoAwardGrades(questionId)
select
  "team_id",
  "rank"
from
  "grades"
where
  "question_id" = ?
  and "award_manual" = ?;

-- awards.awardLevelsOf(questionId)
select
  *
from
  "award_levels"
where
  "question_id" = ?
order by
  "sort",
  "id";

-- awards.deleteAwardLevels(ids)
update "grades"
set
  "award_id" = ?,
  "award_manual" = ?
where
  "award_id" in (?);
delete from "award_levels"
where
  "id" in (?);

-- awards.findTeam(teamId)
select
  "id",
  "competition_id"
from
  "teams"
where
  "id" = ?;

-- awards.gradeAward(questionId, teamId)
select
  "award_id",
  "award_manual"
from
  "grades"
where
  "question_id" = ?
  and "team_id" = ?;

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
  (?, ?, ?, ?, ?);

-- awards.parkAwardLevelName(id)
update "award_levels"
set
  "name" = ?
where
  "id" = ?;

-- awards.setAward(questionId, teamId, v)
update "grades"
set
  "award_id" = ?,
  "award_manual" = ?
where
  "question_id" = ?
  and "team_id" = ?;

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
  "g"."team_id" = ?
  and "r"."grade_state" = ?
order by
  "q"."sort",
  "q"."id";

-- awards.updateAwardLevel(id, values)
update "award_levels"
set
  "name" = ?,
  "sort" = ?,
  "rank_from" = ?,
  "rank_to" = ?
where
  "id" = ?;
