-- The SQL of server/src/modules/similarity/repo.ts on sqlite (server/test/sql-snapshots.test.ts writes this file).

-- similarity.countRead(questionId, unreadable, now)
update "similarity_runs"
set
  "done" = "done" + ?,
  "unreadable" = "unreadable" + ?,
  "updated_at" = ?
where
  "question_id" = ?;

-- similarity.decide(v)
update "similarity_marks"
set
  "decision" = ?,
  "decision_note" = ?,
  "decided_by" = ?,
  "decided_at" = ?
where
  "question_id" = ?
  and "team_id" = ?
  and "work_id" = ?;

-- similarity.deleteExclusion(id)
delete from "similarity_exclusions"
where
  "id" = ?;

-- similarity.earlierEditions(competitionId)
select
  "c"."id",
  "c"."name"
from
  "competitions" as "c"
  inner join "competitions" as "me" on "me"."org_id" = "c"."org_id"
where
  "me"."id" = ?
  and "c"."id" < "me"."id"
  and (
    "c"."brand_id" = "me"."brand_id"
    or coalesce("c"."series_id", "c"."id") = coalesce("me"."series_id", "me"."id")
  )
  and exists (
    select
      "w"."id"
    from
      "works" as "w"
    where
      "w"."competition_id" = "c"."id"
  )
order by
  "c"."id";

-- similarity.exclusionsOf(questionId)
select
  *
from
  "similarity_exclusions"
where
  "question_id" = ?
order by
  "id";

-- similarity.findExclusion(id)
select
  *
from
  "similarity_exclusions"
where
  "id" = ?;

-- similarity.findMark(questionId, teamId)
select
  *
from
  "similarity_marks"
where
  "question_id" = ?
  and "team_id" = ?;

-- similarity.findPair(id)
select
  *
from
  "similarity_pairs"
where
  "id" = ?;

-- similarity.findReport(questionId, teamId)
select
  *
from
  "similarity_reports"
where
  "question_id" = ?
  and "team_id" = ?;

-- similarity.insertExclusion(row)
insert into
  "similarity_exclusions" (
    "question_id",
    "file_key",
    "file_name",
    "chars",
    "reason",
    "created_at"
  )
values
  (?, ?, ?, ?, ?, ?)
returning
  "id";
-- stops here: no row

-- similarity.insertWorkText(row)
insert into
  "work_texts" (
    "work_id",
    "competition_id",
    "question_id",
    "team_id",
    "chars",
    "text",
    "files_json",
    "meta_json",
    "code_json",
    "extracted_at"
  )
values
  (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
on conflict ("work_id") do nothing;

-- similarity.latestWorks(questionIds)
select
  "w"."id",
  "w"."competition_id",
  "w"."question_id",
  "w"."team_id",
  "w"."version",
  "w"."file_key",
  "w"."file_name",
  "w"."size",
  "t"."team_no",
  "t"."name" as "team_name"
from
  "works" as "w"
  inner join "teams" as "t" on "t"."id" = "w"."team_id"
where
  "w"."question_id" in (?)
  and not exists (
    select
      "n"."id"
    from
      "works" as "n"
    where
      "n"."team_id" = "w"."team_id"
      and "n"."question_id" = "w"."question_id"
      and "n"."version" > "w"."version"
  )
order by
  "w"."id";

-- similarity.marksOf(questionId)
select
  *
from
  "similarity_marks"
where
  "question_id" = ?;

-- similarity.pairsOf(questionId)
select
  "id",
  "work_id",
  "other_work_id",
  "kind",
  "language",
  "share",
  "other_share"
from
  "similarity_pairs"
where
  "question_id" = ?;

-- similarity.questionIdsOf(competitionIds)
select
  "id"
from
  "questions"
where
  "competition_id" in (?);

-- similarity.questionsToCheck()
select
  "q"."id" as "question_id",
  "q"."competition_id",
  "r"."deadline",
  "r"."status"
from
  "questions" as "q"
  left join "similarity_runs" as "r" on "r"."question_id" = "q"."id"
  left join "review_rules" as "rr" on "rr"."question_id" = "q"."id"
where
  "q"."judging" in (?, ?)
  and (
    "rr"."grade_state" is null
    or "rr"."grade_state" <> ?
  )
  and (
    (
      "r"."question_id" is null
      and exists (
        select
          "w"."id"
        from
          "works" as "w"
        where
          "w"."question_id" = "q"."id"
      )
    )
    or (
      "r"."status" in (?, ?)
      and exists (
        select
          "w"."id"
        from
          "works" as "w"
        where
          "w"."question_id" = "q"."id"
          and "w"."completed_at" > "r"."started_at"
      )
    )
  );

-- similarity.queueRun(questionId, now, deadline)
insert into
  "similarity_runs" (
    "question_id",
    "deadline",
    "status",
    "works",
    "done",
    "unreadable",
    "pairs",
    "error",
    "started_at",
    "finished_at",
    "updated_at"
  )
values
  (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
on conflict ("question_id") do update
set
  "status" = ?,
  "works" = ?,
  "done" = ?,
  "unreadable" = ?,
  "pairs" = ?,
  "error" = ?,
  "started_at" = ?,
  "finished_at" = ?,
  "updated_at" = ?,
  "deadline" = ?
where
  "similarity_runs"."status" not in (?, ?);

-- similarity.readWorkIds(workIds)
select
  "work_id"
from
  "work_texts"
where
  "work_id" in (?);

-- similarity.replaceResults(questionId, pairs, marks)
update "similarity_marks"
set
  "question_id" = "question_id"
where
  "question_id" = ?;
delete from "similarity_pairs"
where
  "question_id" = ?;
insert into
  "similarity_pairs" (
    "question_id",
    "work_id",
    "other_work_id",
    "kind",
    "language",
    "share",
    "other_share",
    "passages_json",
    "other_passages_json"
  )
values
  (?, ?, ?, ?, ?, ?, ?, ?, ?);
select
  *
from
  "similarity_marks"
where
  "question_id" = ?;
delete from "similarity_marks"
where
  "question_id" = ?;
insert into
  "similarity_marks" (
    "question_id",
    "team_id",
    "work_id",
    "top_share",
    "code_share",
    "identity_json",
    "decision",
    "decision_note",
    "decided_by",
    "decided_at"
  )
values
  (?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

-- similarity.reportsOf(questionId)
select
  *
from
  "similarity_reports"
where
  "question_id" = ?;

-- similarity.runOf(questionId)
select
  *
from
  "similarity_runs"
where
  "question_id" = ?;

-- similarity.saveSettings(questionId, flag, hold, now)
update "questions"
set
  "similarity_flag" = ?,
  "similarity_hold" = ?,
  "updated_at" = ?
where
  "id" = ?;

-- similarity.settingsOf(questionId)
select
  "similarity_flag",
  "similarity_hold"
from
  "questions"
where
  "id" = ?;
-- stops here: no row

-- similarity.updateRun(questionId, values)
update "similarity_runs"
set
  "status" = ?,
  "works" = ?,
  "done" = ?,
  "unreadable" = ?,
  "pairs" = ?,
  "error" = ?,
  "started_at" = ?,
  "finished_at" = ?,
  "updated_at" = ?
where
  "question_id" = ?;

-- similarity.workOrigins(workIds)
select
  "w"."id",
  "w"."question_id",
  "w"."version",
  "c"."name" as "competition_name",
  "q"."title" as "question_title",
  "t"."team_no",
  "t"."name" as "team_name"
from
  "works" as "w"
  inner join "questions" as "q" on "q"."id" = "w"."question_id"
  inner join "competitions" as "c" on "c"."id" = "w"."competition_id"
  inner join "teams" as "t" on "t"."id" = "w"."team_id"
where
  "w"."id" in (?);

-- similarity.workReadings(workIds)
select
  "work_id",
  "chars",
  "files_json"
from
  "work_texts"
where
  "work_id" in (?);

-- similarity.workTexts(workIds)
select
  *
from
  "work_texts"
where
  "work_id" in (?);
