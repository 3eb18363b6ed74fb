-- The SQL of server/src/modules/editions/repo.ts on sqlite (server/test/sql-snapshots.test.ts writes this file).

-- editions.brandById(id)
select
  "id",
  "name"
from
  "brands"
where
  "id" = ?;

-- editions.brandNamed(b)
select
  "id",
  "name"
from
  "brands"
where
  (
    "short_name" = ?
    or "name" = ?
  )
order by
  "id";

-- editions.competitionRow(id)
select
  "c".*,
  "b"."name" as "brand_name",
  "b"."short_name" as "brand_short_name",
  "t"."name" as "type_name"
from
  "competitions" as "c"
  inner join "brands" as "b" on "b"."id" = "c"."brand_id"
  left join "competition_types" as "t" on "t"."id" = "c"."type_id"
where
  "c"."id" = ?;

-- editions.editionsOf(seriesId)
select
  "id",
  "name",
  "audit_status",
  "reg_start_time",
  "end_time"
from
  "competitions"
where
  (
    "id" = ?
    or "series_id" = ?
  )
order by
  "id";

-- editions.filesByKey(keys)
select
  *
from
  "files"
where
  "key" in (?);

-- editions.insertAwardLevels(rows)
insert into
  "award_levels" (
    "name",
    "sort",
    "question_id",
    "id",
    "rank_from",
    "rank_to"
  )
values
  (?, ?, ?, ?, ?, ?);

-- editions.insertExclusions(rows)
insert into
  "similarity_exclusions" (
    "created_at",
    "question_id",
    "file_key",
    "file_name",
    "chars",
    "id",
    "reason"
  )
values
  (?, ?, ?, ?, ?, ?, ?);

-- editions.insertFile(v)
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

-- editions.insertNotice(v)
insert into
  "notices" (
    "created_at",
    "updated_at",
    "title",
    "kind",
    "target_json",
    "id",
    "competition_id",
    "status",
    "org_id",
    "content",
    "publish_at",
    "published_at",
    "source",
    "recipients",
    "delivered",
    "reads",
    "delivery_cursor",
    "delivery_ceiling",
    "delivered_at",
    "author_id",
    "by_email",
    "by_sms"
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
    ?
  );

-- editions.insertQuestion(v)
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

-- editions.insertQuestionFiles(rows)
insert into
  "question_files" ("question_id", "file_key", "sort")
values
  (?, ?, ?);

-- editions.insertReviewRule(v)
insert into
  "review_rules" (
    "updated_at",
    "question_id",
    "criteria_json",
    "judges_per_work",
    "aggregation",
    "review_weight",
    "test_weight",
    "blind",
    "dispute_days",
    "grade_state",
    "calculated_at",
    "confirmed_at"
  )
values
  (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

-- editions.insertTemplate(v)
insert into
  "certificate_templates" (
    "name",
    "updated_at",
    "competition_id",
    "background_key",
    "width",
    "height",
    "fields_json",
    "id"
  )
values
  (?, ?, ?, ?, ?, ?, ?, ?);

-- editions.lockFileHolders(competitionId)
select
  "id"
from
  "questions"
where
  "competition_id" = ? for share;
select
  "question_id"
from
  "question_files"
where
  "question_id" in (
    select
      "id"
    from
      "questions"
    where
      "competition_id" = ?
  ) for share;
select
  "id"
from
  "similarity_exclusions"
where
  "question_id" in (
    select
      "id"
    from
      "questions"
    where
      "competition_id" = ?
  ) for share;

-- editions.orgExists(id)
select
  "id"
from
  "organisations"
where
  "id" = ?;

-- editions.settingsOf(competitionId)
select
  *
from
  "competition_stages"
where
  "competition_id" = ?
order by
  "start_date",
  "sort",
  "id";
select
  *
from
  "competition_presets"
where
  "competition_id" = ?
order by
  "id";
select
  *
from
  "questions"
where
  "competition_id" = ?
order by
  "sort",
  "id";
select
  *
from
  "certificate_templates"
where
  "competition_id" = ?
order by
  "id";
select
  *
from
  "notices"
where
  "competition_id" = ?
  and "status" = ?
order by
  "id";

-- editions.typeNamed(name)
select
  "id"
from
  "competition_types"
where
  "name" = ?;
