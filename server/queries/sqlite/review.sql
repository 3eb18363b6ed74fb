-- The SQL of server/src/modules/review/repo.ts on sqlite (server/test/sql-snapshots.test.ts writes this file).

-- review.anyScored(questionId)
select
  "id"
from
  "review_assignments"
where
  "question_id" = ?
  and "status" > ?
limit
  ?;

-- review.assignmentPage(questionId, q, max)
select
  count(*) as "total"
from
  "review_assignments" as "a"
  inner join "teams" as "t" on "t"."id" = "a"."team_id"
  inner join "users" as "u" on "u"."id" = "a"."judge_id"
  left join "works" as "sw" on "sw"."id" = "a"."work_id"
where
  "a"."question_id" = ?
  and "a"."judge_id" = ?
  and "a"."status" = ?
  and (
    lower("t"."name") like ? escape '\'
    or lower("t"."team_no") like ? escape '\'
    or lower("a"."code") like ? escape '\'
    or lower("u"."username") like ? escape '\'
    or lower("u"."user_name") like ? escape '\'
  );
-- stops here: no row

-- review.assignmentsOf(questionId)
select
  "team_id",
  "judge_id",
  "code",
  "rereview"
from
  "review_assignments"
where
  "question_id" = ?;

-- review.assignmentStatus(id)
select
  "status"
from
  "review_assignments"
where
  "id" = ?;
-- stops here: no row

-- review.assignmentView(id)
select
  "a"."id",
  "a"."question_id",
  "a"."team_id",
  "t"."team_no",
  "t"."name" as "team_name",
  "a"."judge_id",
  "u"."username" as "judge_username",
  "u"."user_name" as "judge_name",
  "a"."code",
  "a"."status",
  "a"."total",
  "a"."rereview",
  "a"."updated_at",
  "a"."submitted_at",
  "a"."scores_json",
  "a"."comment",
  "sw"."version" as "scored_version",
  (
    select
      max("cw"."version") as "v"
    from
      "works" as "cw"
    where
      "cw"."question_id" = "a"."question_id"
      and "cw"."team_id" = "a"."team_id"
  ) as "current_version"
from
  "review_assignments" as "a"
  inner join "teams" as "t" on "t"."id" = "a"."team_id"
  inner join "users" as "u" on "u"."id" = "a"."judge_id"
  left join "works" as "sw" on "sw"."id" = "a"."work_id"
where
  "a"."id" = ?;
-- stops here: no row

-- review.deleteExpert(userId)
delete from "experts"
where
  "user_id" = ?;

-- review.deleteJudge(questionId, userId)
delete from "question_judges"
where
  "question_id" = ?
  and "user_id" = ?;

-- review.deleteTeamAssignments(questionId, teamId)
delete from "review_assignments"
where
  "question_id" = ?
  and "team_id" = ?;

-- review.ensureBoardRule(questionId, now)
insert into
  "review_rules" (
    "question_id",
    "criteria_json",
    "judges_per_work",
    "aggregation",
    "review_weight",
    "test_weight",
    "blind",
    "dispute_days",
    "updated_at"
  )
values
  (?, ?, ?, ?, ?, ?, ?, ?, ?)
on conflict ("question_id") do nothing;

-- review.expertPage(scope, q)
select
  count(*) as "total"
from
  "experts" as "e"
  inner join "users" as "u" on "u"."id" = "e"."user_id"
where
  (
    "e"."org_id" is null
    or "e"."org_id" = ?
  )
  and (
    lower("u"."username") like ? escape '\'
    or lower("u"."user_name") like ? escape '\'
    or lower("e"."organization") like ? escape '\'
    or lower("e"."speciality") like ? escape '\'
  );
-- stops here: no row

-- review.findAssignment(id)
select
  *
from
  "review_assignments"
where
  "id" = ?;

-- review.findExpert(scope, userId)
select
  "e"."user_id",
  "e"."org_id",
  "u"."username",
  "u"."user_name",
  "e"."organization",
  "e"."speciality",
  "e"."title",
  "e"."created_at",
  (
    select
      count(*) as "n"
    from
      "question_judges" as "j"
    where
      "j"."user_id" = "e"."user_id"
  ) as "questions",
  (
    select
      count(*) as "n"
    from
      "review_assignments" as "a"
    where
      "a"."judge_id" = "e"."user_id"
  ) as "assigned",
  (
    select
      count(*) as "n"
    from
      "review_assignments" as "a"
    where
      "a"."judge_id" = "e"."user_id"
      and "a"."status" = ?
  ) as "submitted"
from
  "experts" as "e"
  inner join "users" as "u" on "u"."id" = "e"."user_id"
where
  (
    "e"."org_id" is null
    or "e"."org_id" = ?
  )
  and "e"."user_id" = ?;

-- review.findQuestion(questionId)
select
  "q"."id",
  "q"."title",
  "q"."competition_id",
  "q"."judging",
  "q"."metric",
  "c"."name" as "competition_name",
  "c"."org_id"
from
  "questions" as "q"
  inner join "competitions" as "c" on "c"."id" = "q"."competition_id"
where
  "q"."id" = ?;

-- review.findRule(questionId)
select
  *
from
  "review_rules"
where
  "question_id" = ?;

-- review.grantRole(userId, roleId)
insert into
  "user_roles" ("user_id", "role_id")
values
  (?, ?)
on conflict ("user_id", "role_id") do nothing;

-- review.insertAssignments(rows)
insert into
  "review_assignments" (
    "question_id",
    "team_id",
    "judge_id",
    "code",
    "created_at",
    "updated_at"
  )
values
  (?, ?, ?, ?, ?, ?);

-- review.insertExpert(v)
insert into
  "experts" (
    "user_id",
    "org_id",
    "organization",
    "speciality",
    "title",
    "created_at"
  )
values
  (?, ?, ?, ?, ?, ?);

-- review.insertJudges(questionId, userIds, now)
insert into
  "question_judges" ("question_id", "user_id", "created_at")
values
  (?, ?, ?)
on conflict ("question_id", "user_id") do nothing;

-- review.isAssigned(questionId, teamId, judgeId)
select
  "id"
from
  "review_assignments"
where
  "question_id" = ?
  and "team_id" = ?
  and "judge_id" = ?;

-- review.judgeCandidates(scope, questionId, keyword)
select
  "e"."user_id",
  "e"."org_id",
  "u"."username",
  "u"."user_name",
  "e"."organization",
  "e"."speciality",
  "e"."title",
  "e"."created_at",
  (
    select
      count(*) as "n"
    from
      "question_judges" as "j"
    where
      "j"."user_id" = "e"."user_id"
  ) as "questions",
  (
    select
      count(*) as "n"
    from
      "review_assignments" as "a"
    where
      "a"."judge_id" = "e"."user_id"
  ) as "assigned",
  (
    select
      count(*) as "n"
    from
      "review_assignments" as "a"
    where
      "a"."judge_id" = "e"."user_id"
      and "a"."status" = ?
  ) as "submitted"
from
  "experts" as "e"
  inner join "users" as "u" on "u"."id" = "e"."user_id"
where
  (
    "e"."org_id" is null
    or "e"."org_id" = ?
  )
  and "e"."user_id" not in (
    select
      "user_id"
    from
      "question_judges"
    where
      "question_id" = ?
  )
  and (
    lower("u"."username") like ? escape '\'
    or lower("u"."user_name") like ? escape '\'
    or lower("e"."organization") like ? escape '\'
    or lower("e"."speciality") like ? escape '\'
  )
order by
  "u"."username"
limit
  ?;

-- review.judgeHasAssignment(questionId, judgeId)
select
  "id"
from
  "review_assignments"
where
  "question_id" = ?
  and "judge_id" = ?
limit
  ?;

-- review.judgesOf(questionId)
select
  "e"."user_id",
  "e"."organization"
from
  "question_judges" as "j"
  inner join "experts" as "e" on "e"."user_id" = "j"."user_id"
where
  "j"."question_id" = ?
order by
  "e"."user_id";

-- review.lockRuleRow(questionId)
update "review_rules"
set
  "grade_state" = "grade_state"
where
  "question_id" = ?;

-- review.questionJudgeRows(questionId)
select
  "e"."user_id",
  "u"."username",
  "u"."user_name",
  "e"."organization",
  "e"."speciality",
  "e"."title",
  (
    select
      count(*) as "n"
    from
      "review_assignments" as "a"
    where
      "a"."judge_id" = "j"."user_id"
      and "a"."question_id" = "j"."question_id"
  ) as "assigned",
  (
    select
      count(*) as "n"
    from
      "review_assignments" as "a"
    where
      "a"."judge_id" = "j"."user_id"
      and "a"."question_id" = "j"."question_id"
      and "a"."status" = ?
  ) as "submitted"
from
  "question_judges" as "j"
  inner join "experts" as "e" on "e"."user_id" = "j"."user_id"
  inner join "users" as "u" on "u"."id" = "j"."user_id"
where
  "j"."question_id" = ?
order by
  "j"."created_at",
  "j"."user_id";

-- review.reassignTo(id, judgeId, now)
update "review_assignments"
set
  "judge_id" = ?,
  "status" = ?,
  "scores_json" = ?,
  "comment" = ?,
  "total" = ?,
  "work_id" = ?,
  "updated_at" = ?
where
  "id" = ?;

-- review.reopenSubmitted(id, now)
update "review_assignments"
set
  "status" = ?,
  "submitted_at" = ?,
  "updated_at" = ?
where
  "id" = ?
  and "status" = ?;

-- review.revokeRole(userId, roleId)
delete from "user_roles"
where
  "user_id" = ?
  and "role_id" = ?;

-- review.roleId(code)
select
  "id"
from
  "roles"
where
  "code" = ?;
-- stops here: no row

-- review.similarityState(questionId)
select
  "similarity_hold"
from
  "questions"
where
  "id" = ?;
select
  "status",
  "started_at"
from
  "similarity_runs"
where
  "question_id" = ?;
select
  "m"."team_id",
  "m"."top_share",
  "m"."code_share",
  "m"."identity_json",
  "m"."decision"
from
  "similarity_marks" as "m"
  inner join "works" as "w" on "w"."id" = "m"."work_id"
where
  "m"."question_id" = ?
  and not exists (
    select
      "n"."id"
    from
      "works" as "n"
    where
      "n"."team_id" = "m"."team_id"
      and "n"."question_id" = "m"."question_id"
      and "n"."version" > "w"."version"
  );
-- stops here: no row

-- review.submittedOfTeam(questionId, teamId)
select
  "id",
  "judge_id",
  "code",
  "work_id"
from
  "review_assignments"
where
  "question_id" = ?
  and "team_id" = ?
  and "status" = ?;

-- review.teamLabel(teamId)
select
  "name",
  "team_no"
from
  "teams"
where
  "id" = ?;
-- stops here: no row

-- review.teamMemberRows(teamIds)
select
  "m"."team_id",
  "m"."user_id",
  "m"."info_json",
  "u"."username",
  "u"."user_name",
  "u"."verified_name",
  "u"."organization"
from
  "team_members" as "m"
  inner join "users" as "u" on "u"."id" = "m"."user_id"
where
  "m"."team_id" in (?)
order by
  "m"."leader" desc,
  "m"."created_at";

-- review.teamsWithWorks(questionId)
select distinct
  "t"."id",
  "t"."team_no"
from
  "works" as "w"
  inner join "teams" as "t" on "t"."id" = "w"."team_id"
where
  "w"."question_id" = ?
order by
  "t"."id";

-- review.teamTeacherRows(teamIds)
select
  "id",
  "team_id",
  "name",
  "organization"
from
  "team_teachers"
where
  "team_id" in (?)
order by
  "sort",
  "id";

-- review.updateExpert(userId, v)
update "experts"
set
  "organization" = ?,
  "speciality" = ?,
  "title" = ?
where
  "user_id" = ?;

-- review.upsertRule(questionId, values)
insert into
  "review_rules" (
    "question_id",
    "criteria_json",
    "judges_per_work",
    "aggregation",
    "review_weight",
    "test_weight",
    "blind",
    "dispute_days",
    "updated_at"
  )
values
  (?, ?, ?, ?, ?, ?, ?, ?, ?)
on conflict ("question_id") do update
set
  "criteria_json" = ?,
  "judges_per_work" = ?,
  "aggregation" = ?,
  "review_weight" = ?,
  "test_weight" = ?,
  "blind" = ?,
  "dispute_days" = ?,
  "updated_at" = ?;

-- review.userIdByUsernameKey(key)
select
  "id"
from
  "users"
where
  "username_key" = ?;

-- review.visibleExpertIds(scope, userIds)
select
  "e"."user_id"
from
  "experts" as "e"
  inner join "users" as "u" on "u"."id" = "e"."user_id"
where
  (
    "e"."org_id" is null
    or "e"."org_id" = ?
  )
  and "e"."user_id" in (?);
