-- The SQL of server/src/modules/system/repo.ts on sqlite (server/test/sql-snapshots.test.ts writes this file).

-- system.applicationsToReview()
select
  count(*) as "n"
from
  "partner_applications"
where
  "status" = ?;

-- system.competitionsToAudit()
select
  count(*) as "n"
from
  "competitions"
where
  "audit_status" = ?;

-- system.disputesToAnswer(scope)
select
  count(*) as "n"
from
  "score_disputes"
where
  "status" = ?
  and "question_id" in (
    select
      "id"
    from
      "questions"
    where
      "competition_id" in (
        select
          "id"
        from
          "competitions"
        where
          "org_id" = ?
      )
  );

-- system.invoicesToIssue(scope)
select
  count(*) as "n"
from
  "invoices"
where
  "status" = ?
  and "competition_id" in (
    select
      "id"
    from
      "competitions"
    where
      "org_id" = ?
  );

-- system.judgesNotFinished(scope)
select
  count(distinct "judge_id") as "n"
from
  "review_assignments"
where
  "status" != ?
  and "question_id" in (
    select
      "id"
    from
      "questions"
    where
      "competition_id" in (
        select
          "id"
        from
          "competitions"
        where
          "org_id" = ?
      )
  );

-- system.ping()
select
  1;

-- system.questionsToReview(scope)
select
  count(*) as "n"
from
  "questions" as "q"
  inner join "competitions" as "c" on "c"."id" = "q"."competition_id"
where
  "q"."reviewed" = ?
  and "c"."audit_status" in (?, ?)
  and "c"."id" in (
    select
      "id"
    from
      "competitions"
    where
      "org_id" = ?
  );

-- system.questionsWaitingReview(scope, limit)
select
  "q"."id" as "question_id",
  "q"."title" as "question_title",
  "c"."id" as "competition_id",
  "c"."name" as "competition_name"
from
  "questions" as "q"
  inner join "competitions" as "c" on "c"."id" = "q"."competition_id"
where
  "q"."reviewed" = ?
  and "c"."audit_status" in (?, ?)
  and "c"."id" in (
    select
      "id"
    from
      "competitions"
    where
      "org_id" = ?
  )
order by
  "q"."id"
limit
  ?;

-- system.questionsWithDisputes(scope, max)
select
  "q"."id" as "question_id",
  "q"."title" as "question_title",
  "c"."name" as "competition_name",
  count(*) as "pending"
from
  "score_disputes" as "d"
  inner join "questions" as "q" on "q"."id" = "d"."question_id"
  inner join "competitions" as "c" on "c"."id" = "q"."competition_id"
where
  "d"."status" = ?
  and "c"."org_id" = ?
group by
  "q"."id",
  "q"."title",
  "c"."name"
order by
  "pending" desc,
  "q"."id"
limit
  ?;

-- system.registrationsToReview(scope)
select
  count(*) as "n"
from
  "registers"
where
  "status" = ?
  and "competition_id" in (
    select
      "id"
    from
      "competitions"
    where
      "org_id" = ?
  );

-- system.runningCompetitions(scope, now, max)
select
  "id",
  "name"
from
  "competitions"
where
  "audit_status" = ?
  and "reg_start_time" <= ?
  and "end_time" > ?
  and "org_id" = ?
order by
  "end_time"
limit
  ?;

-- system.runningFigures(ids, days)
select
  "competition_id",
  count(*) as "total",
  sum(
    case
      when "status" = ? then 1
      else 0
    end
  ) as "approved"
from
  "registers"
where
  "competition_id" in (?)
group by
  "competition_id";
select
  "competition_id",
  count(*) as "n"
from
  "orders"
where
  "competition_id" in (?)
  and "pay_status" = ?
group by
  "competition_id";
select
  "competition_id",
  count(distinct "team_id") as "n"
from
  "works"
where
  "competition_id" in (?)
group by
  "competition_id";
select
  "q"."competition_id",
  count(*) as "total",
  sum(
    case
      when "a"."status" = ? then 1
      else 0
    end
  ) as "done"
from
  "review_assignments" as "a"
  inner join "questions" as "q" on "q"."id" = "a"."question_id"
where
  "q"."competition_id" in (?)
group by
  "q"."competition_id";
select
  "competition_id",
  case
    when "created_at" >= ? then 0
    else 0
  end as "day",
  count(*) as "n"
from
  "registers"
where
  "competition_id" in (?)
  and "created_at" >= ?
group by
  "competition_id",
  "day";

-- system.transfersToConfirm(scope)
select
  count(*) as "n"
from
  "orders"
where
  "pay_status" = ?
  and "voucher" is not null
  and "competition_id" in (
    select
      "id"
    from
      "competitions"
    where
      "org_id" = ?
  );

-- system.unfinishedJudges(scope, query)
select
  count(*) as "total"
from
  (
    select
      "a"."question_id",
      "q"."title" as "question_title",
      "q"."competition_id",
      "c"."name" as "competition_name",
      "a"."judge_id",
      "u"."username",
      "u"."user_name",
      count(*) as "assigned",
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
      inner join "users" as "u" on "u"."id" = "a"."judge_id"
    where
      "c"."org_id" = ?
      and "q"."competition_id" = ?
    group by
      "a"."question_id",
      "q"."title",
      "q"."competition_id",
      "c"."name",
      "a"."judge_id",
      "u"."username",
      "u"."user_name"
    having
      sum(
        case
          when "a"."status" = ? then 0
          else 1
        end
      ) > ?
  ) as "j";
select
  "a"."question_id",
  "q"."title" as "question_title",
  "q"."competition_id",
  "c"."name" as "competition_name",
  "a"."judge_id",
  "u"."username",
  "u"."user_name",
  count(*) as "assigned",
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
  inner join "users" as "u" on "u"."id" = "a"."judge_id"
where
  "c"."org_id" = ?
  and "q"."competition_id" = ?
group by
  "a"."question_id",
  "q"."title",
  "q"."competition_id",
  "c"."name",
  "a"."judge_id",
  "u"."username",
  "u"."user_name"
having
  sum(
    case
      when "a"."status" = ? then 0
      else 1
    end
  ) > ?
order by
  sum(
    case
      when "a"."status" = ? then 1
      else 0
    end
  ),
  "a"."question_id",
  "a"."judge_id"
limit
  ?
offset
  ?;
-- stops here: no row
