-- The SQL of server/src/modules/questions/repo.ts on sqlite (server/test/sql-snapshots.test.ts writes this file).

-- questions.competitionOfQuestion(id)
select
  "competition_id"
from
  "questions"
where
  "id" = ?;

-- questions.competitionsOfDataFile(fileKey)
select distinct
  "questions"."competition_id"
from
  "question_files"
  inner join "questions" on "questions"."id" = "question_files"."question_id"
where
  "question_files"."file_key" = ?;

-- questions.deleteDataFile(questionId, key)
delete from "question_files"
where
  "question_id" = ?
  and "file_key" = ?;

-- questions.deleteQuestion(id)
delete from "questions"
where
  "id" = ?;

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
  "q"."id" = ?;

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
  "id" = ?;

-- questions.hasTestSubmissions(id)
select
  "id"
from
  "test_submissions"
where
  "question_id" = ?;

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
  (?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

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
    ?,
    ?,
    ?,
    ?,
    ?,
    ?,
    ?,
    ?,
    ?,
    ?,
    ?,
    ?,
    ?,
    ?,
    ?,
    ?,
    ?,
    ?,
    ?,
    ?,
    ?,
    ?,
    ?,
    ?,
    ?,
    ?,
    ?,
    ?,
    ?,
    ?,
    ?,
    ?
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
  "question_id" = ?;

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
  "c"."org_id" = ?
  and "q"."competition_id" = ?
  and "q"."reviewed" = ?
  and lower("q"."title") like ? escape '\';
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
  "competition_id" = ?
  and "reviewed" = ?
  and "id" = ?
order by
  "sort",
  "id";

-- questions.updateQuestion(id, v)
update "questions"
set
  "id" = ?,
  "sort" = ?,
  "created_at" = ?,
  "updated_at" = ?,
  "competition_id" = ?,
  "title" = ?,
  "content" = ?,
  "reviewed" = ?,
  "creator_id" = ?,
  "judging" = ?,
  "metric" = ?,
  "id_column" = ?,
  "target_column" = ?,
  "public_percent" = ?,
  "daily_limit" = ?,
  "salt" = ?,
  "answer_key" = ?,
  "answer_rows" = ?,
  "leaderboard_published" = ?,
  "positive_label" = ?,
  "top_k" = ?,
  "scoring_version" = ?,
  "split_rule" = ?,
  "answer_index_key" = ?,
  "answer_index_tag" = ?,
  "board_version" = ?,
  "higher_is_better" = ?,
  "time_limit_sec" = ?,
  "metric_name" = ?,
  "scorer_key" = ?,
  "similarity_flag" = ?,
  "similarity_hold" = ?
where
  "id" = ?;

-- questions.userExists(id)
select
  "id"
from
  "users"
where
  "id" = ?;
