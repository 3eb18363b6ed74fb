-- The SQL of server/src/modules/schools/repo.ts on sqlite (server/test/sql-snapshots.test.ts writes this file).

-- schools.deleteSchool(id)
delete from "schools"
where
  "id" = ?;

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
  "s"."id" = ?;

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
  (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
returning
  "id";
-- stops here: no row

-- schools.linkProfiles(userIds, schoolId)
update "users"
set
  "school_id" = ?
where
  "id" in (?)
  and "school_id" is null;

-- schools.renameInProfiles(schoolId, name)
update "users"
set
  "organization" = ?
where
  "school_id" = ?;

-- schools.schoolByCode(code)
select
  *
from
  "schools"
where
  "code" = ?;

-- schools.schoolByKey(nameKey)
select
  *
from
  "schools"
where
  "name_key" = ?;

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
    lower("name") like ? escape '\'
    or "initials" like ?
    or "code" = ?
  )
order by
  "id"
limit
  ?;

-- schools.schoolPage(q)
select
  count(*) as "total"
from
  "schools" as "s"
where
  (
    lower("s"."name") like ? escape '\'
    or lower("s"."initials") like ? escape '\'
    or "s"."code" = ?
  )
  and "s"."province" = ?
  and "s"."kind" = ?;
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
  and "id" > ?
order by
  "id"
limit
  ?;

-- schools.updateSchool(id, v)
update "schools"
set
  "id" = ?,
  "name" = ?,
  "created_at" = ?,
  "updated_at" = ?,
  "kind" = ?,
  "department" = ?,
  "province" = ?,
  "name_key" = ?,
  "code" = ?,
  "initials" = ?
where
  "id" = ?;
