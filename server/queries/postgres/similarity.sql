-- The SQL of server/src/modules/similarity/repo.ts on postgres (server/test/sql-snapshots.test.ts writes this file).

-- similarity.countRead(questionId, unreadable, now)
update "similarity_runs"
set
  "done" = "done" + $1,
  "unreadable" = "unreadable" + $2,
  "updated_at" = $3
where
  "question_id" = $4;

-- similarity.decide(v)
update "similarity_marks"
set
  "decision" = $1,
  "decision_note" = $2,
  "decided_by" = $3,
  "decided_at" = $4
where
  "question_id" = $5
  and "team_id" = $6
  and "work_id" = $7;

-- similarity.deleteExclusion(id)
delete from "similarity_exclusions"
where
  "id" = $1;

-- similarity.earlierEditions(competitionId)
select
  "c"."id",
  "c"."name"
from
  "competitions" as "c"
  inner join "competitions" as "me" on "me"."org_id" = "c"."org_id"
where
  "me"."id" = $1
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
  "question_id" = $1
order by
  "id";

-- similarity.findExclusion(id)
select
  *
from
  "similarity_exclusions"
where
  "id" = $1;

-- similarity.findMark(questionId, teamId)
select
  *
from
  "similarity_marks"
where
  "question_id" = $1
  and "team_id" = $2;

-- similarity.findPair(id)
select
  *
from
  "similarity_pairs"
where
  "id" = $1;

-- similarity.findReport(questionId, teamId)
select
  *
from
  "similarity_reports"
where
  "question_id" = $1
  and "team_id" = $2;

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
  ($1, $2, $3, $4, $5, $6)
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
  ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
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
  "w"."question_id" in ($1)
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
  "question_id" = $1;

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
  "question_id" = $1;

-- similarity.questionIdsOf(competitionIds)
select
  "id"
from
  "questions"
where
  "competition_id" in ($1);

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
  "q"."judging" in ($1, $2)
  and (
    "rr"."grade_state" is null
    or "rr"."grade_state" <> $3
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
      "r"."status" in ($4, $5)
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
  ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
on conflict ("question_id") do update
set
  "status" = $12,
  "works" = $13,
  "done" = $14,
  "unreadable" = $15,
  "pairs" = $16,
  "error" = $17,
  "started_at" = $18,
  "finished_at" = $19,
  "updated_at" = $20,
  "deadline" = $21
where
  "similarity_runs"."status" not in ($22, $23);

-- similarity.readWorkIds(workIds)
select
  "work_id"
from
  "work_texts"
where
  "work_id" in ($1);

-- similarity.replaceResults(questionId, pairs, marks)
update "similarity_marks"
set
  "question_id" = "question_id"
where
  "question_id" = $1;
delete from "similarity_pairs"
where
  "question_id" = $1;
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
  ($1, $2, $3, $4, $5, $6, $7, $8, $9);
select
  *
from
  "similarity_marks"
where
  "question_id" = $1;
delete from "similarity_marks"
where
  "question_id" = $1;
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
  ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10);

-- similarity.reportsOf(questionId)
select
  *
from
  "similarity_reports"
where
  "question_id" = $1;

-- similarity.runOf(questionId)
select
  *
from
  "similarity_runs"
where
  "question_id" = $1;

-- similarity.saveSettings(questionId, flag, hold, now)
update "questions"
set
  "similarity_flag" = $1,
  "similarity_hold" = $2,
  "updated_at" = $3
where
  "id" = $4;

-- similarity.settingsOf(questionId)
select
  "similarity_flag",
  "similarity_hold"
from
  "questions"
where
  "id" = $1;
-- stops here: no row

-- similarity.updateRun(questionId, values)
update "similarity_runs"
set
  "status" = $1,
  "works" = $2,
  "done" = $3,
  "unreadable" = $4,
  "pairs" = $5,
  "error" = $6,
  "started_at" = $7,
  "finished_at" = $8,
  "updated_at" = $9
where
  "question_id" = $10;

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
  "w"."id" in ($1);

-- similarity.workReadings(workIds)
select
  "work_id",
  "chars",
  "files_json"
from
  "work_texts"
where
  "work_id" in ($1);

-- similarity.workTexts(workIds)
select
  *
from
  "work_texts"
where
  "work_id" in ($1);
