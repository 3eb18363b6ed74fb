-- The SQL of server/src/modules/coordinators/repo.ts on postgres (server/test/sql-snapshots.test.ts writes this file).

-- coordinators.appointmentsCovering(c)
select
  "a"."id",
  "a"."user_id",
  "u"."username",
  "u"."verified_name",
  "u"."user_name",
  "a"."school_id",
  "s"."name" as "school_name",
  "a"."scope_key",
  "a"."org_id",
  "a"."created_at"
from
  "school_coordinators" as "a"
  inner join "users" as "u" on "u"."id" = "a"."user_id"
  inner join "schools" as "s" on "s"."id" = "a"."school_id"
where
  "a"."scope_key" in ($1, $2, $3)
order by
  "s"."name",
  "a"."id";

-- coordinators.appointmentsOf(userId)
select
  "a"."user_id",
  "a"."school_id",
  "s"."name" as "school_name",
  "a"."scope_key",
  "a"."org_id",
  "a"."competition_id"
from
  "school_coordinators" as "a"
  inner join "schools" as "s" on "s"."id" = "a"."school_id"
where
  "a"."user_id" = $1
order by
  "a"."id";

-- coordinators.competitionsCovered(a)
select
  "c"."id",
  "c"."name",
  "c"."eligibility_json",
  (
    select
      count(*) as "n"
    from
      "teams" as "t"
    where
      "t"."competition_id" = "c"."id"
      and "t"."school_key" = $1
  ) as "teams"
from
  "competitions" as "c"
where
  "c"."audit_status" = $2
order by
  "c"."reg_start_time" desc,
  "c"."id" desc
limit
  $3;

-- coordinators.confirmedResults(teamIds)
select
  "g"."team_id",
  "q"."title" as "question_title",
  "g"."rank",
  "a"."name" as "award_name"
from
  "grades" as "g"
  inner join "questions" as "q" on "q"."id" = "g"."question_id"
  inner join "review_rules" as "rr" on "rr"."question_id" = "g"."question_id"
  left join "award_levels" as "a" on "a"."id" = "g"."award_id"
where
  "g"."team_id" in ($1)
  and "rr"."confirmed_at" is not null
  and "rr"."grade_state" = $2
order by
  "q"."sort";

-- coordinators.deleteAppointment(id)
delete from "school_coordinators"
where
  "id" = $1;

-- coordinators.findAppointment(id)
select
  *
from
  "school_coordinators"
where
  "id" = $1;

-- coordinators.insertAppointment(v)
insert into
  "school_coordinators" (
    "user_id",
    "school_id",
    "scope_key",
    "org_id",
    "competition_id",
    "appointed_by",
    "created_at"
  )
values
  ($1, $2, $3, $4, $5, $6, $7)
returning
  "id";
-- stops here: no row

-- coordinators.schoolCertificates(competitionId, schoolId)
select
  "c"."id",
  "c"."cert_no",
  "c"."holder_name",
  "c"."award_name",
  "c"."file_key",
  "t"."team_no",
  "t"."name" as "team_name"
from
  "certificates" as "c"
  inner join "teams" as "t" on "t"."id" = "c"."team_id"
where
  "c"."competition_id" = $1
  and "t"."school_key" = $2
  and "c"."file_key" != $3
order by
  "t"."team_no",
  "c"."id";

-- coordinators.schoolName(id)
select
  "name"
from
  "schools"
where
  "id" = $1;

-- coordinators.schoolTeams(competitionId, schoolId)
select
  "t"."id" as "team_id",
  "t"."team_no",
  "t"."name" as "team_name",
  "t"."group_name",
  "r"."id" as "register_id",
  "r"."status",
  "r"."school_status",
  "r"."reason",
  "o"."pay_status",
  "o"."voucher",
  "so"."order_no" as "school_order_no"
from
  "teams" as "t"
  left join "registers" as "r" on "r"."team_id" = "t"."id"
  left join "orders" as "o" on "o"."id" = "r"."order_id"
  left join "school_orders" as "so" on "so"."id" = "o"."school_order_id"
where
  "t"."competition_id" = $1
  and "t"."school_key" = $2
order by
  "t"."team_no";

-- coordinators.submissionCounts(teamIds)
select
  "team_id",
  count(*) as "n"
from
  "works"
where
  "team_id" in ($1)
group by
  "team_id";
select
  "team_id",
  count(*) as "n"
from
  "test_submissions"
where
  "team_id" in ($1)
group by
  "team_id";

-- coordinators.userByUsernameKey(usernameKey)
select
  "id",
  "status"
from
  "users"
where
  "username_key" = $1;
