-- The SQL of server/src/modules/publicity/repo.ts on sqlite (server/test/sql-snapshots.test.ts writes this file).

-- publicity.awardLines(competitionId)
select
  "q"."id" as "question_id",
  "q"."title",
  "t"."id" as "team_id",
  "t"."team_no",
  "t"."name" as "team_name",
  "t"."school_name",
  "t"."group_name",
  "a"."name" as "award_name",
  "g"."rank"
from
  "grades" as "g"
  inner join "questions" as "q" on "q"."id" = "g"."question_id"
  inner join "review_rules" as "r" on "r"."question_id" = "q"."id"
  inner join "teams" as "t" on "t"."id" = "g"."team_id"
  inner join "award_levels" as "a" on "a"."id" = "g"."award_id"
where
  "q"."competition_id" = ?
  and "q"."reviewed" = ?
  and "r"."grade_state" = ?
order by
  "q"."sort",
  "q"."id",
  "a"."sort",
  "g"."rank",
  "t"."id";

-- publicity.certificateNumbers(competitionId)
select
  "question_id",
  "team_id",
  "cert_no"
from
  "certificates"
where
  "competition_id" = ?
order by
  "cert_no";

-- publicity.embedQuestion(questionId)
select
  "q"."id",
  "q"."title",
  "q"."competition_id",
  "q"."leaderboard_published",
  "c"."name" as "competition_name",
  "c"."embed_origins"
from
  "questions" as "q"
  inner join "competitions" as "c" on "c"."id" = "q"."competition_id"
where
  "q"."id" = ?;

-- publicity.insertObjection(v)
insert into
  "score_disputes" (
    "question_id",
    "team_id",
    "user_id",
    "reason",
    "attachment_key",
    "created_at",
    "kind"
  )
values
  (?, ?, ?, ?, ?, ?, ?)
returning
  "id",
  "created_at";
-- stops here: no row

-- publicity.lineOf(competitionId, questionId, teamId)
select
  "q"."title",
  "t"."name" as "team_name",
  "a"."name" as "award_name"
from
  "grades" as "g"
  inner join "questions" as "q" on "q"."id" = "g"."question_id"
  inner join "review_rules" as "r" on "r"."question_id" = "q"."id"
  inner join "teams" as "t" on "t"."id" = "g"."team_id"
  inner join "award_levels" as "a" on "a"."id" = "g"."award_id"
where
  "q"."competition_id" = ?
  and "q"."reviewed" = ?
  and "r"."grade_state" = ?
  and "q"."id" = ?
  and "t"."id" = ?;

-- publicity.objectionAttachmentOrg(key)
select
  "c"."org_id",
  "d"."user_id"
from
  "score_disputes" as "d"
  inner join "questions" as "q" on "q"."id" = "d"."question_id"
  inner join "competitions" as "c" on "c"."id" = "q"."competition_id"
where
  "d"."attachment_key" = ?;

-- publicity.publicityOf(id)
select
  "c"."id",
  "c"."name",
  "c"."org_id",
  "o"."name" as "org_name",
  "c"."publicity_start",
  "c"."publicity_end",
  "c"."embed_origins"
from
  "competitions" as "c"
  inner join "organisations" as "o" on "o"."id" = "c"."org_id"
where
  "c"."id" = ?;

-- publicity.setPublicity(id, v)
update "competitions"
set
  "publicity_start" = ?,
  "publicity_end" = ?,
  "embed_origins" = ?,
  "updated_at" = ?
where
  "id" = ?;
