-- The SQL of server/src/modules/test-submissions/repo.ts on sqlite (server/test/sql-snapshots.test.ts writes this file).

-- test-submissions.boardPage(v)
select
  "b"."team_id",
  "t"."name" as "team_name",
  "t"."group_name",
  "b"."score",
  "b"."submissions",
  "b"."last_at"
from
  "board_scores" as "b"
  inner join "teams" as "t" on "t"."id" = "b"."team_id"
where
  "b"."question_id" = ?
  and "b"."board" = ?
  and "b"."scoring_version" = ?
  and "t"."group_name" = ?
order by
  "b"."rank_key",
  "b"."reached_by"
limit
  ?
offset
  ?;

-- test-submissions.boardRowOf(v)
select
  "b"."team_id",
  "t"."name" as "team_name",
  "t"."group_name",
  "b"."score",
  "b"."submissions",
  "b"."last_at",
  "b"."rank_key",
  "b"."reached_by"
from
  "board_scores" as "b"
  inner join "teams" as "t" on "t"."id" = "b"."team_id"
where
  "b"."question_id" = ?
  and "b"."board" = ?
  and "b"."team_id" = ?
  and "b"."scoring_version" = ?;

-- test-submissions.boardTotal(v)
select
  count(*) as "n"
from
  "board_scores" as "b"
  inner join "teams" as "t" on "t"."id" = "b"."team_id"
where
  "b"."question_id" = ?
  and "b"."board" = ?
  and "b"."scoring_version" = ?
  and "t"."group_name" = ?;
-- stops here: no row

-- test-submissions.bumpScoringVersion(questionId)
update "questions"
set
  "scoring_version" = "scoring_version" + ?
where
  "id" = ?
returning
  "scoring_version";
-- stops here: no row

-- test-submissions.competitionOfFile(key)
select
  "competition_id"
from
  "test_submissions"
where
  "file_key" = ?;

-- test-submissions.competitionQueue(competitionId, since, until)
select
  "status",
  count(*) as "n"
from
  "test_submissions"
where
  "competition_id" = ?
  and (
    "status" in (?, ?)
    or (
      "status" = ?
      and "scored_at" >= ?
      and "scored_at" <= ?
    )
  )
group by
  "status";

-- test-submissions.disqualificationOf(questionId, teamId)
select
  "reason",
  "created_at"
from
  "disqualifications"
where
  "question_id" = ?
  and "team_id" = ?;

-- test-submissions.disqualifiedTeams(questionId)
select
  "d"."team_id",
  "t"."name" as "team_name",
  "d"."reason",
  "u"."username",
  "d"."created_at"
from
  "disqualifications" as "d"
  inner join "teams" as "t" on "t"."id" = "d"."team_id"
  inner join "users" as "u" on "u"."id" = "d"."user_id"
where
  "d"."question_id" = ?
order by
  "d"."created_at" desc;

-- test-submissions.failedFilesOf(teamId)
select
  "id",
  "file_key",
  "size"
from
  "test_submissions"
where
  "team_id" = ?
  and "status" = ?
  and "file_removed_at" is null
order by
  "id" desc;

-- test-submissions.findSubmission(id)
select
  "id",
  "competition_id",
  "question_id",
  "team_id",
  "file_key",
  "file_name",
  "status",
  "day",
  "cancelled_at"
from
  "test_submissions"
where
  "id" = ?;

-- test-submissions.fingerprintsOf(questionId)
select
  "s"."id",
  "s"."team_id",
  "t"."team_no",
  "t"."name" as "team_name",
  "s"."file_name",
  "s"."private_score",
  "s"."created_at",
  "s"."fingerprint"
from
  "test_submissions" as "s"
  inner join "questions" as "q" on "q"."id" = "s"."question_id"
  and "q"."scoring_version" = "s"."scoring_version"
  inner join "teams" as "t" on "t"."id" = "s"."team_id"
where
  "s"."question_id" = ?
  and "s"."status" = ?
  and "s"."cancelled_at" is null
  and "s"."fingerprint" is not null
  and not exists (
    select
      "d"."team_id"
    from
      "disqualifications" as "d"
    where
      "d"."question_id" = "s"."question_id"
      and "d"."team_id" = "s"."team_id"
  )
order by
  "s"."id";

-- test-submissions.gradesConfirmed(questionId)
select
  "grade_state"
from
  "review_rules"
where
  "question_id" = ?;

-- test-submissions.insertRefused(v)
insert into
  "test_submissions" (
    "competition_id",
    "question_id",
    "team_id",
    "user_id",
    "file_key",
    "file_name",
    "size",
    "status",
    "reason",
    "scoring_version",
    "day",
    "created_at",
    "scored_at",
    "file_removed_at"
  )
values
  (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

-- test-submissions.insertSubmission(v)
insert into
  "files" (
    "key",
    "original_name",
    "mime",
    "size",
    "sha256",
    "owner_id",
    "visibility",
    "purpose",
    "created_at"
  )
values
  (?, ?, ?, ?, ?, ?, ?, ?, ?);
insert into
  "test_submissions" (
    "competition_id",
    "question_id",
    "team_id",
    "user_id",
    "file_key",
    "file_name",
    "size",
    "status",
    "day",
    "created_at"
  )
values
  (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
returning
  "id";
-- stops here: no row

-- test-submissions.markFailed(id, reason, at)
select
  "id",
  "competition_id",
  "question_id",
  "team_id",
  "file_key",
  "file_name",
  "status",
  "day",
  "cancelled_at"
from
  "test_submissions"
where
  "id" = ?;

-- test-submissions.markFileRemoved(v)
update "test_submissions"
set
  "file_removed_at" = ?
where
  "id" = ?;
delete from "files"
where
  "key" = ?;

-- test-submissions.markQueued(id, jobId)
update "test_submissions"
set
  "status" = ?,
  "score_job_id" = ?
where
  "id" = ?;

-- test-submissions.markScoring(id)
update "test_submissions"
set
  "status" = ?
where
  "id" = ?;

-- test-submissions.memberOfFileTeam(key, userId)
select
  "s"."id"
from
  "test_submissions" as "s"
  inner join "team_members" as "m" on "m"."team_id" = "s"."team_id"
  and "m"."user_id" = ?
where
  "s"."file_key" = ?;

-- test-submissions.questionNames(questionId)
select
  "q"."id",
  "q"."title",
  "q"."competition_id",
  "c"."name" as "competition_name"
from
  "questions" as "q"
  inner join "competitions" as "c" on "c"."id" = "q"."competition_id"
where
  "q"."id" = ?;

-- test-submissions.questionSubmissions(questionId, f)
select
  "s"."id",
  "s"."question_id",
  "s"."team_id",
  "t"."name" as "team_name",
  "u"."username",
  "s"."file_name",
  "s"."file_key",
  "s"."file_removed_at",
  "s"."size",
  "s"."status",
  "s"."reason",
  "s"."public_score",
  "s"."private_score",
  "s"."selected",
  "s"."created_at",
  "s"."scored_at",
  "s"."scorer_log",
  "s"."cancel_reason",
  "s"."cancelled_at"
from
  "test_submissions" as "s"
  inner join "teams" as "t" on "t"."id" = "s"."team_id"
  inner join "users" as "u" on "u"."id" = "s"."user_id"
where
  "s"."question_id" = ?
  and "s"."team_id" = ?
  and lower("t"."name") like ? escape '\'
  and "s"."status" = ?
  and "s"."cancelled_at" is not null
order by
  "s"."id" desc
limit
  ?
offset
  ?;
select
  count(*) as "n"
from
  "test_submissions" as "s"
  inner join "teams" as "t" on "t"."id" = "s"."team_id"
where
  "s"."question_id" = ?
  and "s"."team_id" = ?
  and lower("t"."name") like ? escape '\'
  and "s"."status" = ?
  and "s"."cancelled_at" is not null;
-- stops here: no row

-- test-submissions.recentFailures(competitionId, limit)
select
  "s"."id",
  "q"."title" as "question_title",
  "t"."name" as "team_name",
  "s"."file_name",
  "s"."reason",
  "s"."scorer_log",
  "s"."scored_at"
from
  "test_submissions" as "s"
  inner join "questions" as "q" on "q"."id" = "s"."question_id"
  inner join "teams" as "t" on "t"."id" = "s"."team_id"
where
  "s"."competition_id" = ?
  and "s"."status" = ?
order by
  "s"."scored_at" desc,
  "s"."id" desc
limit
  ?;

-- test-submissions.refreshTeamBoards(v)
select
  "reason",
  "created_at"
from
  "disqualifications"
where
  "question_id" = ?
  and "team_id" = ?;
select
  "id",
  "public_score",
  "private_score",
  "selected",
  "created_at"
from
  "test_submissions"
where
  "team_id" = ?
  and "question_id" = ?
  and "status" = ?
  and "scoring_version" = ?
  and "cancelled_at" is null
order by
  "id";
delete from "board_scores"
where
  "question_id" = ?
  and "board" = ?
  and "team_id" = ?;
delete from "board_scores"
where
  "question_id" = ?
  and "board" = ?
  and "team_id" = ?;

-- test-submissions.refusedToday(v)
select
  count(*) as "n"
from
  "test_submissions"
where
  "team_id" = ?
  and "question_id" = ?
  and "day" = ?
  and "status" = ?
  and "score_job_id" is null;
-- stops here: no row

-- test-submissions.releaseQuota(v)
update "test_quota"
set
  "used" = "used" - ?
where
  "team_id" = ?
  and "question_id" = ?
  and "day" = ?
  and "used" > ?;

-- test-submissions.rescoreProgress(questionId, version)
select
  count(*) as "total",
  sum(
    case
      when "scoring_version" = ? then 1
      else 0
    end
  ) as "done"
from
  "test_submissions"
where
  "question_id" = ?
  and "status" in (?, ?)
  and "file_removed_at" is null;
-- stops here: no row

-- test-submissions.rescoringPending(questionId, version)
select
  "id"
from
  "test_submissions"
where
  "question_id" = ?
  and "scoring_version" < ?
  and "status" in (?, ?)
  and "file_removed_at" is null
limit
  ?;

-- test-submissions.scoringQuestion(questionId)
select
  "q"."id",
  "q"."competition_id",
  "c"."org_id",
  "q"."reviewed",
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
  "q"."scorer_key",
  "q"."salt",
  "q"."split_rule",
  "q"."answer_key",
  "q"."answer_index_key",
  "q"."answer_index_tag",
  "q"."leaderboard_published",
  "q"."scoring_version",
  "q"."board_version"
from
  "questions" as "q"
  inner join "competitions" as "c" on "c"."id" = "q"."competition_id"
where
  "q"."id" = ?;

-- test-submissions.setCancelled(v)
update "questions"
set
  "board_version" = "board_version" + ?
where
  "id" = ?
returning
  "scoring_version",
  "metric",
  "higher_is_better";
update "teams"
set
  "member_count" = "member_count"
where
  "id" = ?;
update "test_submissions"
set
  "cancel_reason" = ?,
  "cancelled_at" = ?,
  "selected" = ?
where
  "id" = ?
  and "cancelled_at" is null;

-- test-submissions.setDisqualified(v)
update "questions"
set
  "board_version" = "board_version" + ?
where
  "id" = ?
returning
  "scoring_version",
  "metric",
  "higher_is_better";
update "teams"
set
  "member_count" = "member_count"
where
  "id" = ?;
insert into
  "disqualifications" (
    "question_id",
    "team_id",
    "reason",
    "user_id",
    "created_at"
  )
values
  (?, ?, ?, ?, ?)
on conflict ("question_id", "team_id") do nothing
returning
  "team_id";

-- test-submissions.setLeaderboardPublished(questionId, published)
update "questions"
set
  "leaderboard_published" = ?
where
  "id" = ?;

-- test-submissions.setScoreJob(id, jobId)
update "test_submissions"
set
  "score_job_id" = ?
where
  "id" = ?;

-- test-submissions.setSelected(v)
update "questions"
set
  "board_version" = "board_version" + ?
where
  "id" = ?
returning
  "scoring_version",
  "metric",
  "higher_is_better";
update "teams"
set
  "member_count" = "member_count"
where
  "id" = ?;
update "test_submissions"
set
  "selected" = ?
where
  "id" = ?;
select
  count(*) as "n"
from
  "test_submissions"
where
  "team_id" = ?
  and "question_id" = ?
  and "selected" = ?;
-- stops here: no row

-- test-submissions.settle(v)
update "questions"
set
  "board_version" = "board_version" + ?
where
  "id" = ?
returning
  "scoring_version",
  "metric",
  "higher_is_better";

-- test-submissions.staleSubmissions(questionId, version, limit)
select
  "id",
  "question_id",
  "team_id",
  "file_key",
  "status"
from
  "test_submissions"
where
  "question_id" = ?
  and "status" in (?, ?)
  and "scoring_version" < ?
  and "file_removed_at" is null
order by
  "id"
limit
  ?;

-- test-submissions.takeQuota(v)
insert into
  "test_quota" ("team_id", "question_id", "day", "used")
values
  (?, ?, ?, ?)
on conflict ("team_id", "question_id", "day") do update
set
  "used" = "test_quota"."used" + ?
where
  "test_quota"."used" < ?;

-- test-submissions.teamChoosing(userId, competitionId, questionId)
select
  "m"."team_id"
from
  "team_members" as "m"
  inner join "team_choices" as "c" on "c"."team_id" = "m"."team_id"
where
  "m"."user_id" = ?
  and "m"."competition_id" = ?
  and "c"."question_id" = ?;

-- test-submissions.teamOnQuestion(questionId, teamId)
select
  "t"."id",
  "t"."name"
from
  "team_choices" as "c"
  inner join "teams" as "t" on "t"."id" = "c"."team_id"
where
  "c"."question_id" = ?
  and "c"."team_id" = ?;

-- test-submissions.teamSubmissions(teamId, questionId)
select
  "s"."id",
  "s"."question_id",
  "s"."team_id",
  "u"."username",
  "s"."file_name",
  "s"."size",
  "s"."status",
  "s"."reason",
  "s"."public_score",
  "s"."private_score",
  "s"."selected",
  "s"."created_at",
  "s"."scored_at",
  "s"."score_job_id",
  "s"."cancel_reason"
from
  "test_submissions" as "s"
  inner join "users" as "u" on "u"."id" = "s"."user_id"
where
  "s"."team_id" = ?
  and "s"."question_id" = ?
order by
  "s"."id" desc;

-- test-submissions.teamWaiting(v)
select
  count(*) as "n"
from
  "test_submissions"
where
  "team_id" = ?
  and "question_id" = ?
  and "status" = ?
  and "id" < ?;
-- stops here: no row

-- test-submissions.usedToday(teamId, questionId, day)
select
  "used"
from
  "test_quota"
where
  "team_id" = ?
  and "question_id" = ?
  and "day" = ?;

-- test-submissions.wholeBoard(questionId, board)
select
  "b"."team_id",
  "t"."name" as "team_name",
  "b"."score",
  "b"."submissions",
  "b"."last_at"
from
  "board_scores" as "b"
  inner join "teams" as "t" on "t"."id" = "b"."team_id"
  inner join "questions" as "q" on "q"."id" = "b"."question_id"
  and "q"."scoring_version" = "b"."scoring_version"
where
  "b"."question_id" = ?
  and "b"."board" = ?
order by
  "b"."rank_key",
  "b"."reached_by";
