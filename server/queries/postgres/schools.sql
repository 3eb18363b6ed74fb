-- The SQL of server/src/modules/schools/repo.ts on postgres (server/test/sql-snapshots.test.ts writes this file).

-- schools.deleteSchool(id)
delete from "schools"
where
  "id" = $1;

-- schools.findSchool(id)
select
  "s"."id",
  "s"."name",
  "s"."code",
  "s"."province",
  "s"."department",
  "s"."kind",
  "s"."initials",
  (
    select
      count(*) as "n"
    from
      "users" as "u"
    where
      "u"."school_id" = "s"."id"
  ) as "users"
from
  "schools" as "s"
where
  "s"."id" = $1;

-- schools.insertSchool(v)
insert into
  "schools" (
    "name",
    "created_at",
    "updated_at",
    "kind",
    "name_key",
    "initials",
    "id",
    "department",
    "province",
    "code"
  )
values
  ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
returning
  "id";
-- stops here: no row

-- schools.linkProfiles(userIds, schoolId)
update "users"
set
  "school_id" = $1
where
  "id" in ($2)
  and "school_id" is null;

-- schools.renameInProfiles(schoolId, name)
update "users"
set
  "organization" = $1
where
  "school_id" = $2;

-- schools.schoolByCode(code)
select
  *
from
  "schools"
where
  "code" = $1;

-- schools.schoolByKey(nameKey)
select
  *
from
  "schools"
where
  "name_key" = $1;

-- schools.schoolKeys()
select
  "id",
  "name_key",
  "name"
from
  "schools";

-- schools.schoolOptions(keyword, limit)
select
  "id",
  "name",
  "province",
  "kind"
from
  "schools"
where
  (
    lower("name") like $1 escape '\'
    or "initials" like $2
    or "code" = $3
  )
order by
  "id"
limit
  $4;

-- schools.schoolPage(q)
select
  count(*) as "total"
from
  "schools" as "s"
where
  (
    lower("s"."name") like $1 escape '\'
    or lower("s"."initials") like $2 escape '\'
    or "s"."code" = $3
  )
  and "s"."province" = $4
  and "s"."kind" = $5;
-- stops here: no row

-- schools.unlinkedProfiles(after, limit)
select
  "id",
  "organization"
from
  "users"
where
  "school_id" is null
  and "organization" is not null
  and "id" > $1
order by
  "id"
limit
  $2;

-- schools.updateSchool(id, v)
update "schools"
set
  "id" = $1,
  "name" = $2,
  "created_at" = $3,
  "updated_at" = $4,
  "kind" = $5,
  "department" = $6,
  "province" = $7,
  "name_key" = $8,
  "code" = $9,
  "initials" = $10
where
  "id" = $11;
