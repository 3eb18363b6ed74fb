-- The SQL of server/src/modules/competitions/repo.ts on sqlite (server/test/sql-snapshots.test.ts writes this file).

-- competitions.allWindowsOf(competitionId)
select
  "end_time"
from
  "competitions"
where
  "id" = ?;
select
  "id",
  "name",
  "start_date",
  "end_date"
from
  "competition_stages"
where
  "competition_id" = ?;
select
  *
from
  "competition_presets"
where
  "competition_id" = ?
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
  "q"."competition_id" = ?
  and "r"."grade_state" = ?
limit
  ?;

-- competitions.auditorIds(auditCode)
select distinct
  "u"."id"
from
  "users" as "u"
  inner join "user_roles" as "ur" on "ur"."user_id" = "u"."id"
  inner join "role_permissions" as "rp" on "rp"."role_id" = "ur"."role_id"
where
  "rp"."code" = ?
  and "u"."status" = ?;

-- competitions.deleteCompetition(id, from)
delete from "competitions"
where
  "id" = ?
  and "audit_status" in (?);

-- competitions.deleteStage(id)
delete from "competition_stages"
where
  "id" = ?;

-- competitions.editionFacts(competitionId)
select
  "p"."name" as "from_name",
  "c"."shift_days",
  "c"."recheck_json"
from
  "competitions" as "c"
  inner join "competitions" as "p" on "p"."id" = "c"."previous_id"
where
  "c"."id" = ?;

-- competitions.exists(table, id)
select
  "id"
from
  "brands"
where
  "id" = ?;

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
  "c"."id" = ?;

-- competitions.findPreset(id)
select
  *
from
  "competition_presets"
where
  "id" = ?;

-- competitions.findStage(id)
select
  *
from
  "competition_stages"
where
  "id" = ?;

-- competitions.hasLaterEditions(id)
select
  "id"
from
  "competitions"
where
  (
    "previous_id" = ?
    or "series_id" = ?
  );

-- competitions.holdUnlessInAudit(id)
update "competitions"
set
  "audit_status" = "audit_status"
where
  "id" = ?
  and "audit_status" != ?;

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
    ?,
    ?,
    ?,
    ?
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
  (?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

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
  (?, ?, ?, ?, ?)
returning
  "id";
-- stops here: no row

-- competitions.listManage(q, now, scope)
select
  count(*) as "n"
from
  "competitions" as "c"
where
  "c"."org_id" = ?
  and lower(c.name) like ? escape '\'
  and "c"."brand_id" = ?
  and "c"."type_id" = ?
  and "c"."audit_status" = ?;
-- stops here: no row

-- competitions.listPresets(competitionId)
select
  *
from
  "competition_presets"
where
  "competition_id" = ?
order by
  "id";

-- competitions.listPublic(q, now)
select
  count(*) as "n"
from
  "competitions" as "c"
where
  "c"."audit_status" = ?
  and "c"."brand_id" = ?
  and lower(c.name) like ? escape '\';
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
  "competition_id" = ?
order by
  "start_date",
  "sort",
  "id";

-- competitions.markReviewed(ids, now)
update "questions"
set
  "reviewed" = ?,
  "updated_at" = ?
where
  "id" in (?)
  and "reviewed" = ?
returning
  "id";

-- competitions.memberNum(competitionId)
select
  count(*) as "n"
from
  "team_members"
where
  "competition_id" = ?;
-- stops here: no row

-- competitions.organiserIds(competitionId, editCode)
select
  "org_id",
  "created_by"
from
  "competitions"
where
  "id" = ?;

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
  "competition_id" in (?);
select
  *
from
  "competition_presets"
where
  "competition_id" in (?)
  and "menu_code" in (?, ?);
select
  "q"."competition_id",
  "r"."grade_state",
  "r"."confirmed_at"
from
  "review_rules" as "r"
  inner join "questions" as "q" on "q"."id" = "r"."question_id"
where
  "q"."competition_id" in (?)
  and "q"."reviewed" = ?;

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
  "competition_id" in (?);
select
  *
from
  "competition_presets"
where
  "competition_id" in (?)
  and "menu_code" in (?, ?);
select
  "q"."competition_id",
  "r"."grade_state",
  "r"."confirmed_at"
from
  "review_rules" as "r"
  inner join "questions" as "q" on "q"."id" = "r"."question_id"
where
  "q"."competition_id" in (?)
  and "q"."reviewed" = ?;

-- competitions.presetsEndingWith(stageId)
select
  "menu_code",
  "name"
from
  "competition_presets"
where
  "deadline_stage_id" = ?;

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
  "competition_id" = ?
order by
  "sort",
  "id";

-- competitions.realNameRequired(competitionId, menu)
select
  "real_name"
from
  "competition_presets"
where
  "competition_id" = ?
  and "menu_code" = ?;

-- competitions.recheckOf(id)
select
  "recheck_json"
from
  "competitions"
where
  "id" = ?;

-- competitions.replaceRecheck(id, read, left)
update "competitions"
set
  "recheck_json" = ?
where
  "id" = ?
  and "recheck_json" = ?;

-- competitions.submissionWindowOf(competitionId, kind)
select
  "end_time"
from
  "competitions"
where
  "id" = ?;
select
  "id",
  "name",
  "start_date",
  "end_date"
from
  "competition_stages"
where
  "competition_id" = ?;
select
  *
from
  "competition_presets"
where
  "competition_id" = ?
order by
  "id";
-- stops here: no row

-- competitions.submissionWindowsOf(competitionId)
select
  "end_time"
from
  "competitions"
where
  "id" = ?;
select
  "id",
  "name",
  "start_date",
  "end_date"
from
  "competition_stages"
where
  "competition_id" = ?;
select
  *
from
  "competition_presets"
where
  "competition_id" = ?
order by
  "id";
select
  "end_time"
from
  "competitions"
where
  "id" = ?;
select
  "id",
  "name",
  "start_date",
  "end_date"
from
  "competition_stages"
where
  "competition_id" = ?;
select
  *
from
  "competition_presets"
where
  "competition_id" = ?
order by
  "id";
-- stops here: no row

-- competitions.teamNum(competitionId)
select
  count(*) as "n"
from
  "teams"
where
  "competition_id" = ?;
-- stops here: no row

-- competitions.transition(id, from, to, extra)
update "competitions"
set
  "type_id" = ?,
  "brand_id" = ?,
  "id" = ?,
  "name" = ?,
  "created_at" = ?,
  "updated_at" = ?,
  "audit_status" = ?,
  "org_id" = ?,
  "cover" = ?,
  "summary" = ?,
  "introduce" = ?,
  "information" = ?,
  "guide" = ?,
  "training_url" = ?,
  "reg_start_time" = ?,
  "reg_end_time" = ?,
  "end_time" = ?,
  "allow_individual" = ?,
  "invoice_enable" = ?,
  "min_members" = ?,
  "max_members" = ?,
  "max_teachers" = ?,
  "fee" = ?,
  "audit_reply" = ?,
  "created_by" = ?,
  "works_max_mb" = ?,
  "works_types" = ?,
  "eligibility_json" = ?,
  "previous_id" = ?,
  "series_id" = ?,
  "shift_days" = ?,
  "recheck_json" = ?,
  "publicity_start" = ?,
  "publicity_end" = ?,
  "embed_origins" = ?
where
  "id" = ?
  and "audit_status" in (?);

-- competitions.updateCompetition(id, v)
update "competitions"
set
  "type_id" = ?,
  "brand_id" = ?,
  "id" = ?,
  "name" = ?,
  "created_at" = ?,
  "updated_at" = ?,
  "audit_status" = ?,
  "org_id" = ?,
  "cover" = ?,
  "summary" = ?,
  "introduce" = ?,
  "information" = ?,
  "guide" = ?,
  "training_url" = ?,
  "reg_start_time" = ?,
  "reg_end_time" = ?,
  "end_time" = ?,
  "allow_individual" = ?,
  "invoice_enable" = ?,
  "min_members" = ?,
  "max_members" = ?,
  "max_teachers" = ?,
  "fee" = ?,
  "audit_reply" = ?,
  "created_by" = ?,
  "works_max_mb" = ?,
  "works_types" = ?,
  "eligibility_json" = ?,
  "previous_id" = ?,
  "series_id" = ?,
  "shift_days" = ?,
  "recheck_json" = ?,
  "publicity_start" = ?,
  "publicity_end" = ?,
  "embed_origins" = ?
where
  "id" = ?;

-- competitions.updatePreset(id, v)
update "competition_presets"
set
  "id" = ?,
  "name" = ?,
  "competition_id" = ?,
  "menu_code" = ?,
  "enable" = ?,
  "enable_start_time" = ?,
  "enable_end_time" = ?,
  "deadline_stage_id" = ?,
  "field_list" = ?,
  "real_name" = ?
where
  "id" = ?;

-- competitions.updateStage(id, v)
update "competition_stages"
set
  "name" = ?,
  "sort" = ?,
  "start_date" = ?,
  "end_date" = ?
where
  "id" = ?;
