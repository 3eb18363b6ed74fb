-- The SQL of server/src/modules/orgs/repo.ts on sqlite (server/test/sql-snapshots.test.ts writes this file).

-- orgs.countOrganisations()
select
  count(*) as "n"
from
  "organisations";
-- stops here: no row

-- orgs.decideApplication(id, v)
update "partner_applications"
set
  "id" = ?,
  "description" = ?,
  "created_at" = ?,
  "status" = ?,
  "org_id" = ?,
  "reason" = ?,
  "kind" = ?,
  "contact_name" = ?,
  "contact_phone" = ?,
  "contact_email" = ?,
  "org_name" = ?,
  "applicant_id" = ?,
  "reviewed_by" = ?,
  "reviewed_at" = ?
where
  "id" = ?
  and "status" = ?;

-- orgs.deleteOrganisation(id)
delete from "organisations"
where
  "id" = ?;

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
  "a"."id" = ?;

-- orgs.findOrganisation(id)
select
  *
from
  "organisations"
where
  "id" = ?;

-- orgs.findOrganisationByName(name)
select
  *
from
  "organisations"
where
  "name" = ?;

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
  (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
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
  (?, ?, ?, ?, ?, ?, ?)
returning
  "id";
-- stops here: no row

-- orgs.listApplications(q, applicantId)
select
  count(*) as "n"
from
  "partner_applications" as "a"
where
  "a"."status" = ?
  and "a"."applicant_id" = ?;
-- stops here: no row

-- orgs.listOrganisations(q)
select
  count(*) as "n"
from
  "organisations"
where
  lower(name) like ? escape '\';
-- stops here: no row

-- orgs.makeOrganiser(userId, orgId, roleCode, now)
update "users"
set
  "org_id" = ?,
  "updated_at" = ?
where
  "id" = ?;
select
  "id"
from
  "roles"
where
  "code" = ?;
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
  "id" = ?,
  "name" = ?,
  "created_at" = ?,
  "kind" = ?,
  "contact_name" = ?,
  "contact_phone" = ?,
  "contact_email" = ?
where
  "id" = ?;

-- orgs.usage(id)
select
  count(*) as "n"
from
  "users"
where
  "org_id" = ?;
select
  count(*) as "n"
from
  "competitions"
where
  "org_id" = ?;
-- stops here: no row
