-- The SQL of server/src/modules/roles/repo.ts on postgres (server/test/sql-snapshots.test.ts writes this file).

-- roles.countRoles(scope)
select
  count(distinct "user_roles"."role_id") as "n"
from
  "user_roles"
  inner join "users" on "users"."id" = "user_roles"."user_id"
where
  "users"."org_id" = $1;
-- stops here: no row

-- roles.deleteRole(id)
delete from "roles"
where
  "id" = $1;

-- roles.findRole(id)
select
  *
from
  "roles"
where
  "id" = $1;

-- roles.holdersActingFor(code, orgId)
select distinct
  "u"."id"
from
  "users" as "u"
  inner join "user_roles" as "ur" on "ur"."user_id" = "u"."id"
  inner join "role_permissions" as "rp" on "rp"."role_id" = "ur"."role_id"
where
  "u"."status" = $1
  and "rp"."code" = $2
  and (
    "u"."org_id" = $3
    or "u"."id" in (
      select
        "pr"."user_id"
      from
        "user_roles" as "pr"
        inner join "role_permissions" as "pp" on "pp"."role_id" = "pr"."role_id"
      where
        "pp"."code" = $4
    )
  );

-- roles.holdersOf(code, orgId)
select distinct
  "u"."id"
from
  "users" as "u"
  inner join "user_roles" as "ur" on "ur"."user_id" = "u"."id"
  inner join "role_permissions" as "rp" on "rp"."role_id" = "ur"."role_id"
where
  "u"."status" = $1
  and "rp"."code" = $2
  and "u"."org_id" = $3;

-- roles.insertRole(role)
insert into
  "roles" ("code", "name", "description", "builtin")
values
  ($1, $2, $3, $4)
returning
  "id";
-- stops here: no row

-- roles.listRoles()
select
  "roles"."id",
  "roles"."code",
  "roles"."name",
  "roles"."description",
  "roles"."builtin",
  (
    select
      count(*) as "n"
    from
      "user_roles"
    where
      "user_roles"."role_id" = "roles"."id"
  ) as "user_count"
from
  "roles"
order by
  "roles"."id";
select
  "role_id",
  "code"
from
  "role_permissions"
order by
  "code";

-- roles.rolePermissions(roleId)
select
  "code"
from
  "role_permissions"
where
  "role_id" = $1
order by
  "code";

-- roles.setRolePermissions(roleId, codes)
delete from "role_permissions"
where
  "role_id" = $1;
insert into
  "role_permissions" ("role_id", "code")
values
  ($1, $2);

-- roles.updateRole(id, values)
update "roles"
set
  "name" = $1,
  "description" = $2
where
  "id" = $3;
