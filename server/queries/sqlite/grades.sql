-- The SQL of server/src/modules/grades/repo.ts on sqlite (server/test/sql-snapshots.test.ts writes this file).

-- grades.answerPending(id, v)
update "score_disputes"
set
  "status" = ?,
  "answer" = ?,
  "rereview" = ?,
  "answered_by" = ?,
  "answered_at" = ?
where
  "id" = ?
  and "status" = ?;

-- grades.assignmentCodes(questionId)
select
  "code"
from
  "review_assignments"
where
  "question_id" = ?;

-- grades.assignmentTotals(questionId)
select
  "team_id",
  "status",
  "total"
from
  "review_assignments"
where
  "question_id" = ?;

-- grades.awardNames(ids)
select
  "id",
  "name"
from
  "award_levels"
where
  "id" in (?);

-- grades.deleteGradesExcept(questionId, keep)
delete from "grades"
where
  "question_id" = ?
  and "team_id" not in (?);

-- grades.disputePage(questionId, q)
select
  count(*) as "total"
from
  "score_disputes" as "d"
  inner join "teams" as "t" on "t"."id" = "d"."team_id"
  inner join "users" as "u" on "u"."id" = "d"."user_id"
where
  "d"."question_id" = ?
  and "d"."status" = ?;
-- stops here: no row

-- grades.disputeView(id)
select
  "d"."id",
  "d"."question_id",
  "d"."team_id",
  "t"."team_no",
  "t"."name" as "team_name",
  "u"."username",
  "d"."reason",
  "d"."status",
  "d"."answer",
  "d"."rereview",
  "d"."created_at",
  "d"."answered_at",
  "d"."kind",
  "d"."attachment_key",
  "u"."verified_name"
from
  "score_disputes" as "d"
  inner join "teams" as "t" on "t"."id" = "d"."team_id"
  inner join "users" as "u" on "u"."id" = "d"."user_id"
where
  "d"."id" = ?;
-- stops here: no row

-- grades.exportGradeRows(questionId, size)
select
  "g"."question_id",
  "g"."team_id",
  "t"."team_no",
  "t"."name" as "team_name",
  "t"."group_name",
  "t"."school_name",
  "g"."review_scores_json",
  "g"."review_score",
  "g"."judges_done",
  "g"."judges_total",
  "g"."test_score",
  "g"."test_points",
  "g"."final_score",
  "g"."rank",
  "g"."award_id",
  "g"."award_manual"
from
  "grades" as "g"
  inner join "teams" as "t" on "t"."id" = "g"."team_id"
where
  "g"."question_id" = ?
order by
  case
    when "g"."rank" is null then 1
    else 0
  end,
  "g"."rank",
  "t"."team_no"
limit
  ?;

-- grades.findDispute(id)
select
  *
from
  "score_disputes"
where
  "id" = ?;

-- grades.gradedTeamIds(questionId)
select
  "team_id"
from
  "grades"
where
  "question_id" = ?;

-- grades.gradePage(questionId, q, max)
select
  count(*) as "total"
from
  "grades" as "g"
  inner join "teams" as "t" on "t"."id" = "g"."team_id"
where
  "g"."question_id" = ?
  and "t"."group_name" = ?
  and (
    lower("t"."name") like ? escape '\'
    or lower("t"."team_no") like ? escape '\'
  );
-- stops here: no row

-- grades.gradesBySchool(questionId)
select
  "t"."school_name",
  "a"."name" as "award_name",
  "a"."sort" as "award_sort",
  count(*) as "n",
  min("g"."rank") as "best_rank"
from
  "grades" as "g"
  inner join "teams" as "t" on "t"."id" = "g"."team_id"
  left join "award_levels" as "a" on "a"."id" = "g"."award_id"
where
  "g"."question_id" = ?
group by
  "t"."school_name",
  "a"."name",
  "a"."sort";

-- grades.gradeStateOf(questionId)
select
  "grade_state",
  "calculated_at",
  "confirmed_at"
from
  "review_rules"
where
  "question_id" = ?;

-- grades.gradeView(questionId, teamId)
select
  "g"."question_id",
  "g"."team_id",
  "t"."team_no",
  "t"."name" as "team_name",
  "t"."group_name",
  "t"."school_name",
  "g"."review_scores_json",
  "g"."review_score",
  "g"."judges_done",
  "g"."judges_total",
  "g"."test_score",
  "g"."test_points",
  "g"."final_score",
  "g"."rank",
  "g"."award_id",
  "g"."award_manual"
from
  "grades" as "g"
  inner join "teams" as "t" on "t"."id" = "g"."team_id"
where
  "g"."question_id" = ?
  and "g"."team_id" = ?;
-- stops here: no row

-- grades.hasGrade(questionId, teamId)
select
  "team_id"
from
  "grades"
where
  "question_id" = ?
  and "team_id" = ?;

-- grades.insertDispute(v)
insert into
  "score_disputes" (
    "question_id",
    "team_id",
    "user_id",
    "reason",
    "created_at"
  )
values
  (?, ?, ?, ?, ?)
returning
  "id";
-- stops here: no row

-- grades.insertRereview(v)
insert into
  "review_assignments" (
    "question_id",
    "team_id",
    "judge_id",
    "code",
    "rereview",
    "created_at",
    "updated_at"
  )
values
  (?, ?, ?, ?, ?, ?, ?);

-- grades.markCalculated(questionId, now)
update "review_rules"
set
  "grade_state" = ?,
  "calculated_at" = ?
where
  "question_id" = ?;

-- grades.markConfirmed(questionId, now)
update "review_rules"
set
  "grade_state" = ?,
  "calculated_at" = ?,
  "confirmed_at" = coalesce("confirmed_at", ?)
where
  "question_id" = ?;

-- grades.markRecalculating(questionId)
update "review_rules"
set
  "grade_state" = ?
where
  "question_id" = ?;

-- grades.pendingAssignments(questionId)
select
  count(*) as "pending"
from
  "review_assignments"
where
  "question_id" = ?
  and "status" != ?;
-- stops here: no row

-- grades.teamDisputes(teamId)
select
  "d"."id",
  "d"."question_id",
  "d"."team_id",
  "t"."team_no",
  "t"."name" as "team_name",
  "u"."username",
  "d"."reason",
  "d"."status",
  "d"."answer",
  "d"."rereview",
  "d"."created_at",
  "d"."answered_at",
  "d"."kind",
  "d"."attachment_key",
  "u"."verified_name"
from
  "score_disputes" as "d"
  inner join "teams" as "t" on "t"."id" = "d"."team_id"
  inner join "users" as "u" on "u"."id" = "d"."user_id"
where
  "d"."team_id" = ?
  and "d"."kind" = ?;

-- grades.teamGradeRows(teamId)
select
  "g"."question_id",
  "t"."group_name",
  "q"."title" as "question_title",
  "q"."judging",
  "r"."review_weight",
  "r"."test_weight",
  "r"."aggregation",
  "g"."review_score",
  "g"."test_score",
  "g"."test_points",
  "q"."leaderboard_published",
  "g"."final_score",
  "g"."rank",
  "g"."award_id",
  "r"."grade_state",
  "r"."confirmed_at",
  "r"."dispute_days",
  (
    select
      count(*) as "n"
    from
      "grades" as "o"
      inner join "teams" as "ot" on "ot"."id" = "o"."team_id"
    where
      "o"."question_id" = "g"."question_id"
      and coalesce(ot.group_name, '') = coalesce(t.group_name, '')
      and "o"."final_score" is not null
  ) as "teams"
from
  "grades" as "g"
  inner join "questions" as "q" on "q"."id" = "g"."question_id"
  inner join "review_rules" as "r" on "r"."question_id" = "g"."question_id"
  inner join "teams" as "t" on "t"."id" = "g"."team_id"
where
  "g"."team_id" = ?
  and "r"."confirmed_at" is not null
order by
  "q"."sort",
  "q"."id";

-- grades.teamGroups(teamIds)
select
  "id",
  "group_name"
from
  "teams"
where
  "id" in (?);

-- grades.teamIdOf(competitionId, userId)
select
  "team_id"
from
  "team_members"
where
  "competition_id" = ?
  and "user_id" = ?;

-- grades.teamIdsWithWorks(questionId)
select distinct
  "w"."team_id"
from
  "works" as "w"
where
  "w"."question_id" = ?
  and not exists (
    select
      "d"."team_id"
    from
      "disqualifications" as "d"
    where
      "d"."question_id" = "w"."question_id"
      and "d"."team_id" = "w"."team_id"
  );

-- grades.unfinishedJudges(questionId)
select
  "a"."judge_id",
  "u"."username",
  "u"."user_name",
  count(*) as "pending"
from
  "review_assignments" as "a"
  inner join "users" as "u" on "u"."id" = "a"."judge_id"
where
  "a"."question_id" = ?
  and "a"."status" != ?
group by
  "a"."judge_id",
  "u"."username",
  "u"."user_name"
order by
  "a"."judge_id";

-- grades.upsertGrade(questionId, teamId, values)
insert into
  "grades" (
    "question_id",
    "team_id",
    "updated_at",
    "review_scores_json",
    "review_score",
    "judges_done",
    "judges_total",
    "test_score",
    "test_points",
    "final_score",
    "rank"
  )
values
  (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
on conflict ("question_id", "team_id") do update
set
  "updated_at" = ?,
  "review_scores_json" = ?,
  "review_score" = ?,
  "judges_done" = ?,
  "judges_total" = ?,
  "test_score" = ?,
  "test_points" = ?,
  "final_score" = ?,
  "rank" = ?;
