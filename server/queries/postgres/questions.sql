-- The SQL of server/src/modules/questions/repo.ts on postgres (server/test/sql-snapshots.test.ts writes this file).

-- questions.competitionOfQuestion(id)
select
  "competition_id"
from
  "questions"
where
  "id" = $1;

-- questions.competitionsOfDataFile(fileKey)
select distinct
  "questions"."competition_id"
from
  "question_files"
  inner join "questions" on "questions"."id" = "question_files"."question_id"
where
  "question_files"."file_key" = $1;

-- questions.deleteDataFile(questionId, key)
delete from "question_files"
where
  "question_id" = $1
  and "file_key" = $2;

-- questions.deleteQuestion(id)
delete from "questions"
where
  "id" = $1;

-- questions.findQuestion(id)
select
  "q"."id",
  "q"."competition_id",
  "c"."name" as "competition_name",
  "c"."org_id",
  "q"."title",
  "q"."content",
  "q"."sort",
  "q"."reviewed",
  "q"."creator_id",
  "u"."username" as "creator_name",
  "q"."judging",
  "q"."metric",
  "q"."id_column",
  "q"."target_column",
  "q"."public_percent",
  "q"."daily_limit",
  "q"."positive_label",
  "q"."top_k",
  "q"."higher_is_better",
  "q"."time_limit_sec",
  "q"."metric_name",
  "sf"."original_name" as "scorer_name",
  "sf"."size" as "scorer_size",
  "sf"."sha256" as "scorer_sha256",
  "sf"."created_at" as "scorer_uploaded_at",
  "su"."username" as "scorer_uploader_name",
  "q"."answer_rows",
  "q"."created_at",
  "q"."updated_at"
from
  "questions" as "q"
  inner join "competitions" as "c" on "c"."id" = "q"."competition_id"
  left join "users" as "u" on "u"."id" = "q"."creator_id"
  left join "files" as "sf" on "sf"."key" = "q"."scorer_key"
  left join "users" as "su" on "su"."id" = "sf"."owner_id"
where
  "q"."id" = $1;

-- questions.findScoringSecrets(id)
select
  "answer_key",
  "salt",
  "split_rule",
  "answer_index_key",
  "answer_index_tag",
  "scorer_key"
from
  "questions"
where
  "id" = $1;

-- questions.hasTestSubmissions(id)
select
  "id"
from
  "test_submissions"
where
  "question_id" = $1;

-- questions.insertHiddenFile(v)
insert into
  "files" (
    "created_at",
    "key",
    "original_name",
    "mime",
    "size",
    "sha256",
    "visibility",
    "purpose",
    "id",
    "owner_id"
  )
values
  ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10);

-- questions.insertQuestion(v)
insert into
  "questions" (
    "sort",
    "created_at",
    "updated_at",
    "competition_id",
    "title",
    "reviewed",
    "id",
    "content",
    "creator_id",
    "judging",
    "metric",
    "id_column",
    "target_column",
    "public_percent",
    "daily_limit",
    "salt",
    "answer_key",
    "answer_rows",
    "leaderboard_published",
    "positive_label",
    "top_k",
    "scoring_version",
    "split_rule",
    "answer_index_key",
    "answer_index_tag",
    "board_version",
    "higher_is_better",
    "time_limit_sec",
    "metric_name",
    "scorer_key",
    "similarity_flag",
    "similarity_hold"
  )
values
  (
    $1,
    $2,
    $3,
    $4,
    $5,
    $6,
    $7,
    $8,
    $9,
    $10,
    $11,
    $12,
    $13,
    $14,
    $15,
    $16,
    $17,
    $18,
    $19,
    $20,
    $21,
    $22,
    $23,
    $24,
    $25,
    $26,
    $27,
    $28,
    $29,
    $30,
    $31,
    $32
  )
returning
  "id";
-- stops here: no row

-- questions.isChosen(id)
select
  "team_id"
from
  "team_choices"
where
  "question_id" = $1;

-- questions.listQuestions(q, scope)
select
  count(*) as "total"
from
  "questions" as "q"
  inner join "competitions" as "c" on "c"."id" = "q"."competition_id"
  left join "users" as "u" on "u"."id" = "q"."creator_id"
  left join "files" as "sf" on "sf"."key" = "q"."scorer_key"
  left join "users" as "su" on "su"."id" = "sf"."owner_id"
where
  "c"."org_id" = $1
  and "q"."competition_id" = $2
  and "q"."reviewed" = $3
  and lower("q"."title") like $4 escape '\';
-- stops here: no row

-- questions.publicQuestions(competitionId, questionId)
select
  "id",
  "competition_id",
  "title",
  "content",
  "judging"
from
  "questions"
where
  "competition_id" = $1
  and "reviewed" = $2
  and "id" = $3
order by
  "sort",
  "id";

-- questions.updateQuestion(id, v)
update "questions"
set
  "id" = $1,
  "sort" = $2,
  "created_at" = $3,
  "updated_at" = $4,
  "competition_id" = $5,
  "title" = $6,
  "content" = $7,
  "reviewed" = $8,
  "creator_id" = $9,
  "judging" = $10,
  "metric" = $11,
  "id_column" = $12,
  "target_column" = $13,
  "public_percent" = $14,
  "daily_limit" = $15,
  "salt" = $16,
  "answer_key" = $17,
  "answer_rows" = $18,
  "leaderboard_published" = $19,
  "positive_label" = $20,
  "top_k" = $21,
  "scoring_version" = $22,
  "split_rule" = $23,
  "answer_index_key" = $24,
  "answer_index_tag" = $25,
  "board_version" = $26,
  "higher_is_better" = $27,
  "time_limit_sec" = $28,
  "metric_name" = $29,
  "scorer_key" = $30,
  "similarity_flag" = $31,
  "similarity_hold" = $32
where
  "id" = $33;

-- questions.userExists(id)
select
  "id"
from
  "users"
where
  "id" = $1;
