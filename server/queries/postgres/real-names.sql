-- The SQL of server/src/modules/real-names/repo.ts on postgres (server/test/sql-snapshots.test.ts writes this file).

-- real-names.enterSimulatedPerson(number, name, now)
insert into
  "idcheck_simulator_people" ("number", "name", "created_at")
values
  ($1, $2, $3)
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
  "c"."id" = $1;

-- real-names.holderOfKey(numberKey)
select
  "id",
  "user_id",
  "state",
  "created_at"
from
  "real_name_checks"
where
  "number_key" = $1;

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
  (
    $1,
    $2,
    $3,
    $4,
    $5,
    $6,
    $7,
    $8,
    $9,
    $10,
    $11,
    $12,
    $13,
    $14,
    $15
  )
returning
  "id";
-- stops here: no row

-- real-names.isDocumentPhoto(fileKey)
select
  "id"
from
  "real_name_checks"
where
  "file_key" = $1;

-- real-names.latestCheck(userId)
select
  *
from
  "real_name_checks"
where
  "user_id" = $1
order by
  "id" desc
limit
  $2;

-- real-names.listChecks(q)
select
  count(*) as "total"
from
  "real_name_checks" as "c"
  inner join "users" as "u" on "u"."id" = "c"."user_id"
  left join "users" as "d" on "d"."id" = "c"."decided_by"
  left join "files" as "f" on "f"."key" = "c"."file_key"
where
  "c"."state" = $1
  and (
    lower("u"."username") like $2 escape '\'
    or lower("c"."name") like $3 escape '\'
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
  "user_id" = $1
  and "number_key" is not null;

-- real-names.providerChecksSince(userId, since)
select
  count(*) as "n"
from
  "real_name_checks"
where
  "user_id" = $1
  and "method" = $2
  and "state" != $3
  and "created_at" >= $4;
-- stops here: no row

-- real-names.releaseStale(holder, before, now)
update "real_name_checks"
set
  "number_key" = $1,
  "state" = $2,
  "reason" = $3,
  "decided_at" = $4
where
  "number_key" = $5
  and "state" = $6
  and "created_at" < $7;

-- real-names.settle(id, from, v)
update "real_name_checks"
set
  "state" = $1,
  "reason" = $2,
  "provider_ref" = $3,
  "decided_at" = $4,
  "decided_by" = $5
where
  "id" = $6
  and "state" = $7;

-- real-names.setVerifiedName(userId, name, now)
update "users"
set
  "verified_name" = $1,
  "user_name" = $2,
  "updated_at" = $3
where
  "id" = $4;

-- real-names.simulatedPeople(limit)
select
  *
from
  "idcheck_simulator_people"
order by
  "created_at" desc
limit
  $1;

-- real-names.simulatedPerson(number)
select
  "name"
from
  "idcheck_simulator_people"
where
  "number" = $1;

-- real-names.unverifiedMembers(teamId)
select
  "u"."id",
  "u"."username",
  "u"."user_name"
from
  "team_members" as "m"
  inner join "users" as "u" on "u"."id" = "m"."user_id"
where
  "m"."team_id" = $1
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
  "id" = $1;
