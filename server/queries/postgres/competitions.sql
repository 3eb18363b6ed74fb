-- The SQL of server/src/modules/competitions/repo.ts on postgres (server/test/sql-snapshots.test.ts writes this file).

-- competitions.allWindowsOf(competitionId)
select
  "end_time"
from
  "competitions"
where
  "id" = $1;
select
  "id",
  "name",
  "start_date",
  "end_date"
from
  "competition_stages"
where
  "competition_id" = $1;
select
  *
from
  "competition_presets"
where
  "competition_id" = $1
order by
  "id";
-- stops here: no row

-- competitions.anyResultsPublished(competitionId)
select
  "r"."question_id"
from
  "review_rules" as "r"
  inner join "questions" as "q" on "q"."id" = "r"."question_id"
where
  "q"."competition_id" = $1
  and "r"."grade_state" = $2
limit
  $3;

-- competitions.auditorIds(auditCode)
select distinct
  "u"."id"
from
  "users" as "u"
  inner join "user_roles" as "ur" on "ur"."user_id" = "u"."id"
  inner join "role_permissions" as "rp" on "rp"."role_id" = "ur"."role_id"
where
  "rp"."code" = $1
  and "u"."status" = $2;

-- competitions.deleteCompetition(id, from)
delete from "competitions"
where
  "id" = $1
  and "audit_status" in ($2);

-- competitions.deleteStage(id)
delete from "competition_stages"
where
  "id" = $1;

-- competitions.editionFacts(competitionId)
select
  "p"."name" as "from_name",
  "c"."shift_days",
  "c"."recheck_json"
from
  "competitions" as "c"
  inner join "competitions" as "p" on "p"."id" = "c"."previous_id"
where
  "c"."id" = $1;

-- competitions.exists(table, id)
select
  "id"
from
  "brands"
where
  "id" = $1;

-- competitions.findCompetition(id, now)
select
  "c"."id",
  "c"."name",
  "c"."brand_id",
  "b"."short_name" as "brand_short_name",
  "c"."type_id",
  "t"."name" as "type_name",
  "c"."org_id",
  "o"."name" as "org_name",
  "c"."cover",
  "c"."summary",
  "c"."reg_start_time",
  "c"."reg_end_time",
  "c"."end_time",
  "c"."fee",
  "c"."audit_status",
  (
    select
      count(*) as "n"
    from
      "teams"
    where
      "teams"."competition_id" = "c"."id"
  ) as "team_num",
  "c"."introduce",
  "c"."information",
  "c"."guide",
  "c"."training_url",
  "c"."allow_individual",
  "c"."invoice_enable",
  "c"."min_members",
  "c"."max_members",
  "c"."max_teachers",
  "c"."works_max_mb",
  "c"."works_types",
  "c"."eligibility_json",
  "c"."audit_reply",
  "c"."created_at",
  "c"."updated_at"
from
  "competitions" as "c"
  inner join "brands" as "b" on "b"."id" = "c"."brand_id"
  inner join "organisations" as "o" on "o"."id" = "c"."org_id"
  left join "competition_types" as "t" on "t"."id" = "c"."type_id"
where
  "c"."id" = $1;

-- competitions.findPreset(id)
select
  *
from
  "competition_presets"
where
  "id" = $1;

-- competitions.findStage(id)
select
  *
from
  "competition_stages"
where
  "id" = $1;

-- competitions.hasLaterEditions(id)
select
  "id"
from
  "competitions"
where
  (
    "previous_id" = $1
    or "series_id" = $2
  );

-- competitions.holdUnlessInAudit(id)
update "competitions"
set
  "audit_status" = "audit_status"
where
  "id" = $1
  and "audit_status" != $2;

-- competitions.insertCompetition(v)
insert into
  "competitions" (
    "brand_id",
    "name",
    "created_at",
    "updated_at",
    "audit_status",
    "org_id",
    "reg_start_time",
    "reg_end_time",
    "end_time",
    "allow_individual",
    "min_members",
    "max_members",
    "max_teachers",
    "fee",
    "type_id",
    "id",
    "cover",
    "summary",
    "introduce",
    "information",
    "guide",
    "training_url",
    "invoice_enable",
    "audit_reply",
    "created_by",
    "works_max_mb",
    "works_types",
    "eligibility_json",
    "previous_id",
    "series_id",
    "shift_days",
    "recheck_json",
    "publicity_start",
    "publicity_end",
    "embed_origins"
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
    $32,
    $33,
    $34,
    $35
  )
returning
  "id";
-- stops here: no row

-- competitions.insertPresets(rows)
insert into
  "competition_presets" (
    "name",
    "competition_id",
    "menu_code",
    "enable",
    "field_list",
    "id",
    "enable_start_time",
    "enable_end_time",
    "deadline_stage_id",
    "real_name"
  )
values
  ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10);

-- competitions.insertStage(v)
insert into
  "competition_stages" (
    "name",
    "sort",
    "competition_id",
    "start_date",
    "end_date"
  )
values
  ($1, $2, $3, $4, $5)
returning
  "id";
-- stops here: no row

-- competitions.listManage(q, now, scope)
select
  count(*) as "n"
from
  "competitions" as "c"
where
  "c"."org_id" = $1
  and lower(c.name) like $2 escape '\'
  and "c"."brand_id" = $3
  and "c"."type_id" = $4
  and "c"."audit_status" = $5;
-- stops here: no row

-- competitions.listPresets(competitionId)
select
  *
from
  "competition_presets"
where
  "competition_id" = $1
order by
  "id";

-- competitions.listPublic(q, now)
select
  count(*) as "n"
from
  "competitions" as "c"
where
  "c"."audit_status" = $1
  and "c"."brand_id" = $2
  and lower(c.name) like $3 escape '\';
-- stops here: no row

-- competitions.listStages(competitionId)
select
  "id",
  "competition_id",
  "name",
  "start_date",
  "end_date",
  "sort"
from
  "competition_stages"
where
  "competition_id" = $1
order by
  "start_date",
  "sort",
  "id";

-- competitions.markReviewed(ids, now)
update "questions"
set
  "reviewed" = $1,
  "updated_at" = $2
where
  "id" in ($3)
  and "reviewed" = $4
returning
  "id";

-- competitions.memberNum(competitionId)
select
  count(*) as "n"
from
  "team_members"
where
  "competition_id" = $1;
-- stops here: no row

-- competitions.organiserIds(competitionId, editCode)
select
  "org_id",
  "created_by"
from
  "competitions"
where
  "id" = $1;

-- competitions.phaseOf(competition, now)
select
  "id",
  "competition_id",
  "name",
  "start_date",
  "end_date"
from
  "competition_stages"
where
  "competition_id" in ($1);
select
  *
from
  "competition_presets"
where
  "competition_id" in ($1)
  and "menu_code" in ($2, $3);
select
  "q"."competition_id",
  "r"."grade_state",
  "r"."confirmed_at"
from
  "review_rules" as "r"
  inner join "questions" as "q" on "q"."id" = "r"."question_id"
where
  "q"."competition_id" in ($1)
  and "q"."reviewed" = $2;

-- competitions.phasesOf(competitions, now)
select
  "id",
  "competition_id",
  "name",
  "start_date",
  "end_date"
from
  "competition_stages"
where
  "competition_id" in ($1);
select
  *
from
  "competition_presets"
where
  "competition_id" in ($1)
  and "menu_code" in ($2, $3);
select
  "q"."competition_id",
  "r"."grade_state",
  "r"."confirmed_at"
from
  "review_rules" as "r"
  inner join "questions" as "q" on "q"."id" = "r"."question_id"
where
  "q"."competition_id" in ($1)
  and "q"."reviewed" = $2;

-- competitions.presetsEndingWith(stageId)
select
  "menu_code",
  "name"
from
  "competition_presets"
where
  "deadline_stage_id" = $1;

-- competitions.readinessQuestions(competitionId)
select
  "id",
  "title",
  "reviewed",
  "judging",
  "answer_rows",
  "metric",
  "id_column",
  "target_column",
  "public_percent",
  "daily_limit",
  "positive_label",
  "top_k",
  "higher_is_better",
  "time_limit_sec",
  "metric_name",
  "scorer_key"
from
  "questions"
where
  "competition_id" = $1
order by
  "sort",
  "id";

-- competitions.realNameRequired(competitionId, menu)
select
  "real_name"
from
  "competition_presets"
where
  "competition_id" = $1
  and "menu_code" = $2;

-- competitions.recheckOf(id)
select
  "recheck_json"
from
  "competitions"
where
  "id" = $1;

-- competitions.replaceRecheck(id, read, left)
update "competitions"
set
  "recheck_json" = $1
where
  "id" = $2
  and "recheck_json" = $3;

-- competitions.submissionWindowOf(competitionId, kind)
select
  "end_time"
from
  "competitions"
where
  "id" = $1;
select
  "id",
  "name",
  "start_date",
  "end_date"
from
  "competition_stages"
where
  "competition_id" = $1;
select
  *
from
  "competition_presets"
where
  "competition_id" = $1
order by
  "id";
-- stops here: no row

-- competitions.submissionWindowsOf(competitionId)
select
  "end_time"
from
  "competitions"
where
  "id" = $1;
select
  "id",
  "name",
  "start_date",
  "end_date"
from
  "competition_stages"
where
  "competition_id" = $1;
select
  *
from
  "competition_presets"
where
  "competition_id" = $1
order by
  "id";
select
  "end_time"
from
  "competitions"
where
  "id" = $1;
select
  "id",
  "name",
  "start_date",
  "end_date"
from
  "competition_stages"
where
  "competition_id" = $1;
select
  *
from
  "competition_presets"
where
  "competition_id" = $1
order by
  "id";
-- stops here: no row

-- competitions.teamNum(competitionId)
select
  count(*) as "n"
from
  "teams"
where
  "competition_id" = $1;
-- stops here: no row

-- competitions.transition(id, from, to, extra)
update "competitions"
set
  "type_id" = $1,
  "brand_id" = $2,
  "id" = $3,
  "name" = $4,
  "created_at" = $5,
  "updated_at" = $6,
  "audit_status" = $7,
  "org_id" = $8,
  "cover" = $9,
  "summary" = $10,
  "introduce" = $11,
  "information" = $12,
  "guide" = $13,
  "training_url" = $14,
  "reg_start_time" = $15,
  "reg_end_time" = $16,
  "end_time" = $17,
  "allow_individual" = $18,
  "invoice_enable" = $19,
  "min_members" = $20,
  "max_members" = $21,
  "max_teachers" = $22,
  "fee" = $23,
  "audit_reply" = $24,
  "created_by" = $25,
  "works_max_mb" = $26,
  "works_types" = $27,
  "eligibility_json" = $28,
  "previous_id" = $29,
  "series_id" = $30,
  "shift_days" = $31,
  "recheck_json" = $32,
  "publicity_start" = $33,
  "publicity_end" = $34,
  "embed_origins" = $35
where
  "id" = $36
  and "audit_status" in ($37);

-- competitions.updateCompetition(id, v)
update "competitions"
set
  "type_id" = $1,
  "brand_id" = $2,
  "id" = $3,
  "name" = $4,
  "created_at" = $5,
  "updated_at" = $6,
  "audit_status" = $7,
  "org_id" = $8,
  "cover" = $9,
  "summary" = $10,
  "introduce" = $11,
  "information" = $12,
  "guide" = $13,
  "training_url" = $14,
  "reg_start_time" = $15,
  "reg_end_time" = $16,
  "end_time" = $17,
  "allow_individual" = $18,
  "invoice_enable" = $19,
  "min_members" = $20,
  "max_members" = $21,
  "max_teachers" = $22,
  "fee" = $23,
  "audit_reply" = $24,
  "created_by" = $25,
  "works_max_mb" = $26,
  "works_types" = $27,
  "eligibility_json" = $28,
  "previous_id" = $29,
  "series_id" = $30,
  "shift_days" = $31,
  "recheck_json" = $32,
  "publicity_start" = $33,
  "publicity_end" = $34,
  "embed_origins" = $35
where
  "id" = $36;

-- competitions.updatePreset(id, v)
update "competition_presets"
set
  "id" = $1,
  "name" = $2,
  "competition_id" = $3,
  "menu_code" = $4,
  "enable" = $5,
  "enable_start_time" = $6,
  "enable_end_time" = $7,
  "deadline_stage_id" = $8,
  "field_list" = $9,
  "real_name" = $10
where
  "id" = $11;

-- competitions.updateStage(id, v)
update "competition_stages"
set
  "name" = $1,
  "sort" = $2,
  "start_date" = $3,
  "end_date" = $4
where
  "id" = $5;
