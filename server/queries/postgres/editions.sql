-- The SQL of server/src/modules/editions/repo.ts on postgres (server/test/sql-snapshots.test.ts writes this file).

-- editions.brandById(id)
select
  "id",
  "name"
from
  "brands"
where
  "id" = $1;

-- editions.brandNamed(b)
select
  "id",
  "name"
from
  "brands"
where
  (
    "short_name" = $1
    or "name" = $2
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
  "c"."id" = $1;

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
    "id" = $1
    or "series_id" = $2
  )
order by
  "id";

-- editions.filesByKey(keys)
select
  *
from
  "files"
where
  "key" in ($1);

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
  ($1, $2, $3, $4, $5, $6);

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
  ($1, $2, $3, $4, $5, $6, $7);

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
  ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10);

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
    $22
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

-- editions.insertQuestionFiles(rows)
insert into
  "question_files" ("question_id", "file_key", "sort")
values
  ($1, $2, $3);

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
  ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12);

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
  ($1, $2, $3, $4, $5, $6, $7, $8);

-- editions.lockFileHolders(competitionId)
select
  "id"
from
  "questions"
where
  "competition_id" = $1
for share;
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
      "competition_id" = $1
  )
for share;
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
      "competition_id" = $1
  )
for share;

-- editions.orgExists(id)
select
  "id"
from
  "organisations"
where
  "id" = $1;

-- editions.settingsOf(competitionId)
select
  *
from
  "competition_stages"
where
  "competition_id" = $1
order by
  "start_date",
  "sort",
  "id";
select
  *
from
  "competition_presets"
where
  "competition_id" = $1
order by
  "id";
select
  *
from
  "questions"
where
  "competition_id" = $1
order by
  "sort",
  "id";
select
  *
from
  "certificate_templates"
where
  "competition_id" = $1
order by
  "id";
select
  *
from
  "notices"
where
  "competition_id" = $1
  and "status" = $2
order by
  "id";

-- editions.typeNamed(name)
select
  "id"
from
  "competition_types"
where
  "name" = $1;
