-- The SQL of server/src/modules/registrations/repo.ts on postgres (server/test/sql-snapshots.test.ts writes this file).

-- registrations.exportRegisters(q, scope, size)
select
  "r"."id",
  "r"."competition_id",
  "c"."name" as "competition_name",
  "c"."org_id",
  "r"."team_id",
  "t"."team_no",
  "t"."name" as "team_name",
  "t"."individual",
  "t"."school_name",
  "t"."group_name",
  "t"."member_count" as "member_num",
  "r"."user_id",
  "u"."username",
  "r"."status",
  "r"."reason",
  "r"."school_status",
  "r"."school_reason",
  "r"."order_id",
  "o"."pay_status",
  "r"."attachments_json",
  "r"."created_at",
  "r"."updated_at"
from
  "registers" as "r"
  inner join "teams" as "t" on "t"."id" = "r"."team_id"
  inner join "competitions" as "c" on "c"."id" = "r"."competition_id"
  inner join "users" as "u" on "u"."id" = "r"."user_id"
  left join "orders" as "o" on "o"."id" = "r"."order_id"
where
  "c"."org_id" = $1
  and "r"."team_id" = $2
  and "r"."competition_id" = $3
  and "r"."status" = $4
  and "r"."id" in ($5)
  and (
    lower("t"."team_no") like $6 escape '\'
    or lower("t"."name") like $7 escape '\'
    or lower("u"."username") like $8 escape '\'
  )
order by
  "r"."id" desc
limit
  $9;

-- registrations.findRegister(id)
select
  "r"."id",
  "r"."competition_id",
  "c"."name" as "competition_name",
  "c"."org_id",
  "r"."team_id",
  "t"."team_no",
  "t"."name" as "team_name",
  "t"."individual",
  "t"."school_name",
  "t"."group_name",
  "t"."member_count" as "member_num",
  "r"."user_id",
  "u"."username",
  "r"."status",
  "r"."reason",
  "r"."school_status",
  "r"."school_reason",
  "r"."order_id",
  "o"."pay_status",
  "r"."attachments_json",
  "r"."created_at",
  "r"."updated_at"
from
  "registers" as "r"
  inner join "teams" as "t" on "t"."id" = "r"."team_id"
  inner join "competitions" as "c" on "c"."id" = "r"."competition_id"
  inner join "users" as "u" on "u"."id" = "r"."user_id"
  left join "orders" as "o" on "o"."id" = "r"."order_id"
where
  "r"."id" = $1;

-- registrations.findRegisterOfTeam(teamId)
select
  "r"."id",
  "r"."competition_id",
  "c"."name" as "competition_name",
  "c"."org_id",
  "r"."team_id",
  "t"."team_no",
  "t"."name" as "team_name",
  "t"."individual",
  "t"."school_name",
  "t"."group_name",
  "t"."member_count" as "member_num",
  "r"."user_id",
  "u"."username",
  "r"."status",
  "r"."reason",
  "r"."school_status",
  "r"."school_reason",
  "r"."order_id",
  "o"."pay_status",
  "r"."attachments_json",
  "r"."created_at",
  "r"."updated_at"
from
  "registers" as "r"
  inner join "teams" as "t" on "t"."id" = "r"."team_id"
  inner join "competitions" as "c" on "c"."id" = "r"."competition_id"
  inner join "users" as "u" on "u"."id" = "r"."user_id"
  left join "orders" as "o" on "o"."id" = "r"."order_id"
where
  "r"."team_id" = $1;

-- registrations.findRegisters(ids, scope)
select
  "r"."id",
  "r"."competition_id",
  "c"."name" as "competition_name",
  "c"."org_id",
  "r"."team_id",
  "t"."team_no",
  "t"."name" as "team_name",
  "t"."individual",
  "t"."school_name",
  "t"."group_name",
  "t"."member_count" as "member_num",
  "r"."user_id",
  "u"."username",
  "r"."status",
  "r"."reason",
  "r"."school_status",
  "r"."school_reason",
  "r"."order_id",
  "o"."pay_status",
  "r"."attachments_json",
  "r"."created_at",
  "r"."updated_at"
from
  "registers" as "r"
  inner join "teams" as "t" on "t"."id" = "r"."team_id"
  inner join "competitions" as "c" on "c"."id" = "r"."competition_id"
  inner join "users" as "u" on "u"."id" = "r"."user_id"
  left join "orders" as "o" on "o"."id" = "r"."order_id"
where
  "r"."id" in ($1)
  and "c"."org_id" = $2;

-- registrations.formsWithFile(key, userId)
select
  "c"."org_id",
  "f"."info_json",
  "m"."user_id" as "member_id"
from
  "team_members" as "f"
  inner join "teams" as "t" on "t"."id" = "f"."team_id"
  inner join "competitions" as "c" on "c"."id" = "t"."competition_id"
  left join "team_members" as "m" on "m"."team_id" = "f"."team_id"
  and "m"."user_id" = $1
where
  "f"."info_json" like $2;

-- registrations.insertFlow(v)
insert into
  "register_flows" (
    "register_id",
    "actor_id",
    "action",
    "from_status",
    "to_status",
    "reason",
    "created_at"
  )
values
  ($1, $2, $3, $4, $5, $6, $7);

-- registrations.insertRegister(v)
insert into
  "registers" (
    "competition_id",
    "team_id",
    "user_id",
    "status",
    "school_status",
    "order_id",
    "attachments_json",
    "created_at",
    "updated_at"
  )
values
  ($1, $2, $3, $4, $5, $6, $7, $8, $9)
returning
  "id";
-- stops here: no row

-- registrations.listFlows(registerId)
select
  "f"."id",
  "f"."action",
  "u"."username",
  "f"."from_status",
  "f"."to_status",
  "f"."reason",
  "f"."created_at"
from
  "register_flows" as "f"
  left join "users" as "u" on "u"."id" = "f"."actor_id"
where
  "f"."register_id" = $1
order by
  "f"."id";

-- registrations.listRegisters(q, scope, max)
select
  count(*) as "total"
from
  "registers" as "r"
where
  "r"."team_id" = $1
  and "r"."competition_id" in (
    select
      "c"."id"
    from
      "competitions" as "c"
    where
      "c"."org_id" = $2
  )
  and "r"."competition_id" = $3
  and "r"."status" = $4
  and "r"."id" in ($5)
  and (
    exists (
      select
        "teams"."id"
      from
        "teams"
      where
        "teams"."id" = "r"."team_id"
        and (
          lower("teams"."team_no") like $6 escape '\'
          or lower("teams"."name") like $7 escape '\'
        )
    )
    or exists (
      select
        "users"."id"
      from
        "users"
      where
        "users"."id" = "r"."user_id"
        and lower("users"."username") like $8 escape '\'
    )
  );
-- stops here: no row

-- registrations.registersWithAttachment(key, userId)
select
  "c"."org_id",
  "r"."attachments_json",
  "m"."user_id" as "member_id"
from
  "registers" as "r"
  inner join "competitions" as "c" on "c"."id" = "r"."competition_id"
  left join "team_members" as "m" on "m"."team_id" = "r"."team_id"
  and "m"."user_id" = $1
where
  "r"."attachments_json" like $2;

-- registrations.reopenAtSchool(id)
update "registers"
set
  "school_status" = $1,
  "school_reason" = $2
where
  "id" = $3
  and "school_status" is not null;

-- registrations.schoolReviewTarget(id)
select
  "r"."id",
  "r"."team_id",
  "t"."name" as "team_name",
  "r"."competition_id",
  "c"."name" as "competition_name",
  "c"."org_id",
  "r"."status",
  "r"."school_status",
  "t"."school_key"
from
  "registers" as "r"
  inner join "teams" as "t" on "t"."id" = "r"."team_id"
  inner join "competitions" as "c" on "c"."id" = "r"."competition_id"
where
  "r"."id" = $1;

-- registrations.schoolTransition(id, to, v)
update "registers"
set
  "school_status" = $1,
  "school_reason" = $2,
  "updated_at" = $3
where
  "id" = $4
  and "school_status" = $5
  and "status" = $6;

-- registrations.teamOfUser(competitionId, userId)
select
  "team_id"
from
  "team_members"
where
  "competition_id" = $1
  and "user_id" = $2;

-- registrations.transition(id, from, to, v)
update "registers"
set
  "status" = $1,
  "reason" = $2,
  "updated_at" = $3
where
  "id" = $4
  and "status" = $5
  and (
    "school_status" is null
    or "school_status" != $6
  );
