-- The SQL of server/src/modules/system/repo.ts on postgres (server/test/sql-snapshots.test.ts writes this file).

-- system.applicationsToReview()
select
  count(*) as "n"
from
  "partner_applications"
where
  "status" = $1;

-- system.competitionsToAudit()
select
  count(*) as "n"
from
  "competitions"
where
  "audit_status" = $1;

-- system.disputesToAnswer(scope)
select
  count(*) as "n"
from
  "score_disputes"
where
  "status" = $1
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
          "org_id" = $2
      )
  );

-- system.invoicesToIssue(scope)
select
  count(*) as "n"
from
  "invoices"
where
  "status" = $1
  and "competition_id" in (
    select
      "id"
    from
      "competitions"
    where
      "org_id" = $2
  );

-- system.judgesNotFinished(scope)
select
  count(distinct "judge_id") as "n"
from
  "review_assignments"
where
  "status" != $1
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
          "org_id" = $2
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
  "q"."reviewed" = $1
  and "c"."audit_status" in ($2, $3)
  and "c"."id" in (
    select
      "id"
    from
      "competitions"
    where
      "org_id" = $4
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
  "q"."reviewed" = $1
  and "c"."audit_status" in ($2, $3)
  and "c"."id" in (
    select
      "id"
    from
      "competitions"
    where
      "org_id" = $4
  )
order by
  "q"."id"
limit
  $5;

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
  "d"."status" = $1
  and "c"."org_id" = $2
group by
  "q"."id",
  "q"."title",
  "c"."name"
order by
  "pending" desc,
  "q"."id"
limit
  $3;

-- system.registrationsToReview(scope)
select
  count(*) as "n"
from
  "registers"
where
  "status" = $1
  and "competition_id" in (
    select
      "id"
    from
      "competitions"
    where
      "org_id" = $2
  );

-- system.runningCompetitions(scope, now, max)
select
  "id",
  "name"
from
  "competitions"
where
  "audit_status" = $1
  and "reg_start_time" <= $2
  and "end_time" > $3
  and "org_id" = $4
order by
  "end_time"
limit
  $5;

-- system.runningFigures(ids, days)
select
  "competition_id",
  count(*) as "total",
  sum(
    case
      when "status" = $1 then 1
      else 0
    end
  ) as "approved"
from
  "registers"
where
  "competition_id" in ($2)
group by
  "competition_id";
select
  "competition_id",
  count(*) as "n"
from
  "orders"
where
  "competition_id" in ($1)
  and "pay_status" = $2
group by
  "competition_id";
select
  "competition_id",
  count(distinct "team_id") as "n"
from
  "works"
where
  "competition_id" in ($1)
group by
  "competition_id";
select
  "q"."competition_id",
  count(*) as "total",
  sum(
    case
      when "a"."status" = $1 then 1
      else 0
    end
  ) as "done"
from
  "review_assignments" as "a"
  inner join "questions" as "q" on "q"."id" = "a"."question_id"
where
  "q"."competition_id" in ($2)
group by
  "q"."competition_id";
select
  "competition_id",
  case
    when "created_at" >= $1 then 0
    else 0
  end as "day",
  count(*) as "n"
from
  "registers"
where
  "competition_id" in ($2)
  and "created_at" >= $3
group by
  "competition_id",
  "day";

-- system.transfersToConfirm(scope)
select
  count(*) as "n"
from
  "orders"
where
  "pay_status" = $1
  and "voucher" is not null
  and "competition_id" in (
    select
      "id"
    from
      "competitions"
    where
      "org_id" = $2
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
          when "a"."status" = $1 then 1
          else 0
        end
      ) as "submitted"
    from
      "review_assignments" as "a"
      inner join "questions" as "q" on "q"."id" = "a"."question_id"
      inner join "competitions" as "c" on "c"."id" = "q"."competition_id"
      inner join "users" as "u" on "u"."id" = "a"."judge_id"
    where
      "c"."org_id" = $2
      and "q"."competition_id" = $3
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
          when "a"."status" = $4 then 0
          else 1
        end
      ) > $5
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
      when "a"."status" = $1 then 1
      else 0
    end
  ) as "submitted"
from
  "review_assignments" as "a"
  inner join "questions" as "q" on "q"."id" = "a"."question_id"
  inner join "competitions" as "c" on "c"."id" = "q"."competition_id"
  inner join "users" as "u" on "u"."id" = "a"."judge_id"
where
  "c"."org_id" = $2
  and "q"."competition_id" = $3
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
      when "a"."status" = $4 then 0
      else 1
    end
  ) > $5
order by
  sum(
    case
      when "a"."status" = $6 then 1
      else 0
    end
  ),
  "a"."question_id",
  "a"."judge_id"
limit
  $7
offset
  $8;
-- stops here: no row
