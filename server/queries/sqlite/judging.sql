-- The SQL of server/src/modules/judging/repo.ts on sqlite (server/test/sql-snapshots.test.ts writes this file).

-- judging.countedWork(questionId, teamId)
select
  "id",
  "version",
  "file_key",
  "file_name",
  "size",
  "sha256"
from
  "works"
where
  "question_id" = ?
  and "team_id" = ?
order by
  "version" desc
limit
  ?;

-- judging.judgeAssignments(questionId, judgeId)
select
  *
from
  "review_assignments"
where
  "question_id" = ?
  and "judge_id" = ?
order by
  "status",
  "code";

-- judging.judgeTaskRows(judgeId)
select
  "c"."id" as "competition_id",
  "c"."name" as "competition_name",
  "q"."id" as "question_id",
  "q"."title" as "question_title",
  "r"."blind",
  count(*) as "total",
  sum(
    case
      when "a"."status" = ? then 1
      else 0
    end
  ) as "submitted"
from
  "review_assignments" as "a"
  inner join "questions" as "q" on "q"."id" = "a"."question_id"
  inner join "competitions" as "c" on "c"."id" = "q"."competition_id"
  inner join "review_rules" as "r" on "r"."question_id" = "a"."question_id"
where
  "a"."judge_id" = ?
group by
  "c"."id",
  "c"."name",
  "q"."id",
  "q"."title",
  "r"."blind"
order by
  "c"."id" desc,
  "q"."id";

-- judging.teamNames(teamIds)
select
  "id",
  "name"
from
  "teams"
where
  "id" in (?);

-- judging.workVersions(questionId, teamIds)
select
  "id",
  "team_id",
  "version",
  "file_name",
  "size",
  "completed_at"
from
  "works"
where
  "question_id" = ?
  and "team_id" in (?)
order by
  "version" desc;

-- judging.writeScores(id, judgeId, v)
update "review_assignments"
set
  "scores_json" = ?,
  "comment" = ?,
  "total" = ?,
  "status" = ?,
  "submitted_at" = ?,
  "updated_at" = ?,
  "work_id" = ?
where
  "id" = ?
  and "judge_id" = ?
  and "status" != ?;
