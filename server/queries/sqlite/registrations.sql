-- The SQL of server/src/modules/registrations/repo.ts on sqlite (server/test/sql-snapshots.test.ts writes this file).

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
  "c"."org_id" = ?
  and "r"."team_id" = ?
  and "r"."competition_id" = ?
  and "r"."status" = ?
  and "r"."id" in (?)
  and (
    lower("t"."team_no") like ? escape '\'
    or lower("t"."name") like ? escape '\'
    or lower("u"."username") like ? escape '\'
  )
order by
  "r"."id" desc
limit
  ?;

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
  "r"."id" = ?;

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
  "r"."team_id" = ?;

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
  "r"."id" in (?)
  and "c"."org_id" = ?;

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
  and "m"."user_id" = ?
where
  "f"."info_json" like ?;

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
  (?, ?, ?, ?, ?, ?, ?);

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
  (?, ?, ?, ?, ?, ?, ?, ?, ?)
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
  "f"."register_id" = ?
order by
  "f"."id";

-- registrations.listRegisters(q, scope, max)
select
  count(*) as "total"
from
  "registers" as "r"
where
  "r"."team_id" = ?
  and "r"."competition_id" in (
    select
      "c"."id"
    from
      "competitions" as "c"
    where
      "c"."org_id" = ?
  )
  and "r"."competition_id" = ?
  and "r"."status" = ?
  and "r"."id" in (?)
  and (
    exists (
      select
        "teams"."id"
      from
        "teams"
      where
        "teams"."id" = "r"."team_id"
        and (
          lower("teams"."team_no") like ? escape '\'
          or lower("teams"."name") like ? escape '\'
        )
    )
    or exists (
      select
        "users"."id"
      from
        "users"
      where
        "users"."id" = "r"."user_id"
        and lower("users"."username") like ? escape '\'
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
  and "m"."user_id" = ?
where
  "r"."attachments_json" like ?;

-- registrations.reopenAtSchool(id)
update "registers"
set
  "school_status" = ?,
  "school_reason" = ?
where
  "id" = ?
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
  "r"."id" = ?;

-- registrations.schoolTransition(id, to, v)
update "registers"
set
  "school_status" = ?,
  "school_reason" = ?,
  "updated_at" = ?
where
  "id" = ?
  and "school_status" = ?
  and "status" = ?;

-- registrations.teamOfUser(competitionId, userId)
select
  "team_id"
from
  "team_members"
where
  "competition_id" = ?
  and "user_id" = ?;

-- registrations.transition(id, from, to, v)
update "registers"
set
  "status" = ?,
  "reason" = ?,
  "updated_at" = ?
where
  "id" = ?
  and "status" = ?
  and (
    "school_status" is null
    or "school_status" != ?
  );
