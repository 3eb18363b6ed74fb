-- The SQL of server/src/modules/real-names/repo.ts on sqlite (server/test/sql-snapshots.test.ts writes this file).

-- real-names.enterSimulatedPerson(number, name, now)
insert into
  "idcheck_simulator_people" ("number", "name", "created_at")
values
  (?, ?, ?)
on conflict ("number") do nothing;

-- real-names.findCheck(id)
select
  "f"."mime" as "file_mime",
  "c"."id",
  "c"."user_id",
  "u"."username",
  "c"."doc_type",
  "c"."name",
  "c"."number_mask",
  "c"."number_enc",
  "c"."method",
  "c"."state",
  "c"."reason",
  "c"."file_key",
  "c"."created_at",
  "c"."decided_at",
  "d"."username" as "decided_by"
from
  "real_name_checks" as "c"
  inner join "users" as "u" on "u"."id" = "c"."user_id"
  left join "users" as "d" on "d"."id" = "c"."decided_by"
  left join "files" as "f" on "f"."key" = "c"."file_key"
where
  "c"."id" = ?;

-- real-names.holderOfKey(numberKey)
select
  "id",
  "user_id",
  "state",
  "created_at"
from
  "real_name_checks"
where
  "number_key" = ?;

-- real-names.insertCheck(values)
insert into
  "real_name_checks" (
    "name",
    "created_at",
    "user_id",
    "state",
    "doc_type",
    "number_enc",
    "number_mask",
    "method",
    "id",
    "file_key",
    "reason",
    "number_key",
    "provider_ref",
    "decided_at",
    "decided_by"
  )
values
  (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
returning
  "id";
-- stops here: no row

-- real-names.isDocumentPhoto(fileKey)
select
  "id"
from
  "real_name_checks"
where
  "file_key" = ?;

-- real-names.latestCheck(userId)
select
  *
from
  "real_name_checks"
where
  "user_id" = ?
order by
  "id" desc
limit
  ?;

-- real-names.listChecks(q)
select
  count(*) as "total"
from
  "real_name_checks" as "c"
  inner join "users" as "u" on "u"."id" = "c"."user_id"
  left join "users" as "d" on "d"."id" = "c"."decided_by"
  left join "files" as "f" on "f"."key" = "c"."file_key"
where
  "c"."state" = ?
  and (
    lower("u"."username") like ? escape '\'
    or lower("c"."name") like ? escape '\'
  );
-- stops here: no row

-- real-names.openOfUser(userId)
select
  "id",
  "state",
  "created_at"
from
  "real_name_checks"
where
  "user_id" = ?
  and "number_key" is not null;

-- real-names.providerChecksSince(userId, since)
select
  count(*) as "n"
from
  "real_name_checks"
where
  "user_id" = ?
  and "method" = ?
  and "state" != ?
  and "created_at" >= ?;
-- stops here: no row

-- real-names.releaseStale(holder, before, now)
update "real_name_checks"
set
  "number_key" = ?,
  "state" = ?,
  "reason" = ?,
  "decided_at" = ?
where
  "number_key" = ?
  and "state" = ?
  and "created_at" < ?;

-- real-names.settle(id, from, v)
update "real_name_checks"
set
  "state" = ?,
  "reason" = ?,
  "provider_ref" = ?,
  "decided_at" = ?,
  "decided_by" = ?
where
  "id" = ?
  and "state" = ?;

-- real-names.setVerifiedName(userId, name, now)
update "users"
set
  "verified_name" = ?,
  "user_name" = ?,
  "updated_at" = ?
where
  "id" = ?;

-- real-names.simulatedPeople(limit)
select
  *
from
  "idcheck_simulator_people"
order by
  "created_at" desc
limit
  ?;

-- real-names.simulatedPerson(number)
select
  "name"
from
  "idcheck_simulator_people"
where
  "number" = ?;

-- real-names.unverifiedMembers(teamId)
select
  "u"."id",
  "u"."username",
  "u"."user_name"
from
  "team_members" as "m"
  inner join "users" as "u" on "u"."id" = "m"."user_id"
where
  "m"."team_id" = ?
  and "u"."verified_name" is null
order by
  "m"."leader" desc,
  "u"."id";

-- real-names.verifiedName(userId)
select
  "verified_name"
from
  "users"
where
  "id" = ?;
