-- The SQL of server/src/modules/orgs/repo.ts on postgres (server/test/sql-snapshots.test.ts writes this file).

-- orgs.countOrganisations()
select
  count(*) as "n"
from
  "organisations";
-- stops here: no row

-- orgs.decideApplication(id, v)
update "partner_applications"
set
  "id" = $1,
  "description" = $2,
  "created_at" = $3,
  "status" = $4,
  "org_id" = $5,
  "reason" = $6,
  "kind" = $7,
  "contact_name" = $8,
  "contact_phone" = $9,
  "contact_email" = $10,
  "org_name" = $11,
  "applicant_id" = $12,
  "reviewed_by" = $13,
  "reviewed_at" = $14
where
  "id" = $15
  and "status" = $16;

-- orgs.deleteOrganisation(id)
delete from "organisations"
where
  "id" = $1;

-- orgs.findApplication(id)
select
  "a"."id",
  "a"."org_name",
  "a"."kind",
  "a"."contact_name",
  "a"."contact_phone",
  "a"."contact_email",
  "a"."description",
  "a"."applicant_id",
  "u"."username" as "applicant_name",
  "a"."status",
  "a"."reason",
  "a"."org_id",
  "a"."created_at",
  "a"."reviewed_at"
from
  "partner_applications" as "a"
  inner join "users" as "u" on "u"."id" = "a"."applicant_id"
where
  "a"."id" = $1;

-- orgs.findOrganisation(id)
select
  *
from
  "organisations"
where
  "id" = $1;

-- orgs.findOrganisationByName(name)
select
  *
from
  "organisations"
where
  "name" = $1;

-- orgs.insertApplication(v)
insert into
  "partner_applications" (
    "created_at",
    "status",
    "kind",
    "contact_name",
    "contact_phone",
    "org_name",
    "applicant_id",
    "id",
    "description",
    "org_id",
    "reason",
    "contact_email",
    "reviewed_by",
    "reviewed_at"
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
    $14
  )
returning
  "id";
-- stops here: no row

-- orgs.insertOrganisation(v)
insert into
  "organisations" (
    "name",
    "created_at",
    "kind",
    "id",
    "contact_name",
    "contact_phone",
    "contact_email"
  )
values
  ($1, $2, $3, $4, $5, $6, $7)
returning
  "id";
-- stops here: no row

-- orgs.listApplications(q, applicantId)
select
  count(*) as "n"
from
  "partner_applications" as "a"
where
  "a"."status" = $1
  and "a"."applicant_id" = $2;
-- stops here: no row

-- orgs.listOrganisations(q)
select
  count(*) as "n"
from
  "organisations"
where
  lower(name) like $1 escape '\';
-- stops here: no row

-- orgs.makeOrganiser(userId, orgId, roleCode, now)
update "users"
set
  "org_id" = $1,
  "updated_at" = $2
where
  "id" = $3;
select
  "id"
from
  "roles"
where
  "code" = $1;
-- stops here: no row

-- orgs.organisationOptions()
select
  "id",
  "name"
from
  "organisations"
order by
  "name";

-- orgs.updateOrganisation(id, v)
update "organisations"
set
  "id" = $1,
  "name" = $2,
  "created_at" = $3,
  "kind" = $4,
  "contact_name" = $5,
  "contact_phone" = $6,
  "contact_email" = $7
where
  "id" = $8;

-- orgs.usage(id)
select
  count(*) as "n"
from
  "users"
where
  "org_id" = $1;
select
  count(*) as "n"
from
  "competitions"
where
  "org_id" = $1;
-- stops here: no row
