-- The SQL of server/src/modules/certificates/repo.ts on postgres (server/test/sql-snapshots.test.ts writes this file).

-- certificates.awardedTeams(questionId)
select
  "g"."team_id",
  "t"."name" as "team_name",
  "l"."name" as "award_name"
from
  "grades" as "g"
  inner join "award_levels" as "l" on "l"."id" = "g"."award_id"
  inner join "teams" as "t" on "t"."id" = "g"."team_id"
where
  "g"."question_id" = $1
order by
  "g"."rank",
  "t"."team_no";

-- certificates.certificateByNumber(certNo)
select
  "x"."id",
  "x"."cert_no",
  "x"."competition_id",
  "c"."name" as "competition_name",
  "x"."question_id",
  "q"."title" as "question_title",
  "x"."team_id",
  "t"."name" as "team_name",
  "x"."holder_kind",
  "x"."holder_name",
  "x"."school",
  "x"."award_name",
  "x"."created_at",
  "x"."verify_code"
from
  "certificates" as "x"
  inner join "questions" as "q" on "q"."id" = "x"."question_id"
  inner join "competitions" as "c" on "c"."id" = "x"."competition_id"
  inner join "teams" as "t" on "t"."id" = "x"."team_id"
where
  "x"."file_key" != $1
  and "x"."cert_no" = $2;

-- certificates.certificateRow(id)
select
  "x"."id",
  "x"."cert_no",
  "x"."competition_id",
  "c"."name" as "competition_name",
  "x"."question_id",
  "q"."title" as "question_title",
  "x"."team_id",
  "t"."name" as "team_name",
  "x"."holder_kind",
  "x"."holder_name",
  "x"."school",
  "x"."award_name",
  "x"."created_at"
from
  "certificates" as "x"
  inner join "questions" as "q" on "q"."id" = "x"."question_id"
  inner join "competitions" as "c" on "c"."id" = "x"."competition_id"
  inner join "teams" as "t" on "t"."id" = "x"."team_id"
where
  "x"."file_key" != $1
  and "x"."id" = $2;
-- stops here: no row

-- certificates.certificatesExcept(questionId, kept)
select
  "id",
  "file_key"
from
  "certificates"
where
  "question_id" = $1
  and "id" not in ($2);

-- certificates.competitionUsesBackground(competitionId, key)
select
  "id"
from
  "certificate_templates"
where
  "competition_id" = $1
  and "background_key" = $2;

-- certificates.deleteCertificate(id)
delete from "certificates"
where
  "id" = $1;

-- certificates.deleteTemplate(id)
delete from "certificate_templates"
where
  "id" = $1;

-- certificates.exportQuestionCertificates(questionId, q, size)
select
  "x"."id",
  "x"."cert_no",
  "x"."competition_id",
  "c"."name" as "competition_name",
  "x"."question_id",
  "q"."title" as "question_title",
  "x"."team_id",
  "t"."name" as "team_name",
  "x"."holder_kind",
  "x"."holder_name",
  "x"."school",
  "x"."award_name",
  "x"."created_at"
from
  "certificates" as "x"
  inner join "questions" as "q" on "q"."id" = "x"."question_id"
  inner join "competitions" as "c" on "c"."id" = "x"."competition_id"
  inner join "teams" as "t" on "t"."id" = "x"."team_id"
where
  "x"."file_key" != $1
  and "x"."question_id" = $2
  and (
    lower("x"."holder_name") like $3 escape '\'
    or lower("t"."name") like $4 escape '\'
    or lower("x"."cert_no") like $5 escape '\'
  )
order by
  "x"."id"
limit
  $6;

-- certificates.failRun(questionId, error, now)
update "certificate_runs"
set
  "state" = $1,
  "error" = $2,
  "updated_at" = $3
where
  "question_id" = $4;

-- certificates.findCertificate(id)
select
  "team_id",
  "competition_id",
  "file_key",
  "holder_name",
  "award_name",
  "cert_no"
from
  "certificates"
where
  "id" = $1;

-- certificates.findFile(key)
select
  "key",
  "owner_id",
  "purpose"
from
  "files"
where
  "key" = $1;

-- certificates.findHolderCertificate(h)
select
  "id",
  "cert_no",
  "verify_code",
  "file_key"
from
  "certificates"
where
  "question_id" = $1
  and "team_id" = $2
  and "holder_kind" = $3
  and "holder_ref" = $4;

-- certificates.findRun(questionId)
select
  *
from
  "certificate_runs"
where
  "question_id" = $1;

-- certificates.findTemplate(id)
select
  *
from
  "certificate_templates"
where
  "id" = $1;

-- certificates.findUpload(key)
select
  "key",
  "owner_id",
  "original_name",
  "mime",
  "sha256"
from
  "files"
where
  "key" = $1
  and "purpose" = $2;

-- certificates.finishRun(questionId, total, done, now)
update "certificate_runs"
set
  "state" = $1,
  "total" = $2,
  "done" = $3,
  "updated_at" = $4
where
  "question_id" = $5;

-- certificates.insertCertificate(row)
insert into
  "certificates" (
    "created_at",
    "competition_id",
    "cert_no",
    "verify_code",
    "question_id",
    "team_id",
    "holder_kind",
    "holder_ref",
    "holder_name",
    "award_name",
    "file_key",
    "id",
    "user_id",
    "school"
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

-- certificates.insertTemplate(row)
insert into
  "certificate_templates" (
    "name",
    "updated_at",
    "competition_id",
    "background_key",
    "width",
    "height",
    "fields_json",
    "id"
  )
values
  ($1, $2, $3, $4, $5, $6, $7, $8)
returning
  *;
-- stops here: no row

-- certificates.questionCertificates(questionId, q)
select
  count(*) as "total"
from
  "certificates" as "x"
  inner join "questions" as "q" on "q"."id" = "x"."question_id"
  inner join "competitions" as "c" on "c"."id" = "x"."competition_id"
  inner join "teams" as "t" on "t"."id" = "x"."team_id"
where
  "x"."file_key" != $1
  and "x"."question_id" = $2
  and (
    lower("x"."holder_name") like $3 escape '\'
    or lower("t"."name") like $4 escape '\'
    or lower("x"."cert_no") like $5 escape '\'
  );
-- stops here: no row

-- certificates.questionHeading(questionId)
select
  "q"."title",
  "q"."competition_id",
  "c"."name" as "competition_name",
  "o"."name" as "organizer"
from
  "questions" as "q"
  inner join "competitions" as "c" on "c"."id" = "q"."competition_id"
  left join "organisations" as "o" on "o"."id" = "c"."org_id"
where
  "q"."id" = $1;
-- stops here: no row

-- certificates.relateTemplate(questionId, templateId, now)
insert into
  "certificate_runs" ("question_id", "template_id", "updated_at")
values
  ($1, $2, $3)
on conflict ("question_id") do update
set
  "template_id" = $4,
  "updated_at" = $5;

-- certificates.setRunDone(questionId, done, now)
update "certificate_runs"
set
  "done" = $1,
  "updated_at" = $2
where
  "question_id" = $3;

-- certificates.startRun(questionId, total, now)
update "certificate_runs"
set
  "state" = $1,
  "total" = $2,
  "done" = $3,
  "error" = $4,
  "updated_at" = $5
where
  "question_id" = $6
  and "state" != $7;

-- certificates.teamCertificates(teamId)
select
  "x"."id",
  "x"."cert_no",
  "x"."competition_id",
  "c"."name" as "competition_name",
  "x"."question_id",
  "q"."title" as "question_title",
  "x"."team_id",
  "t"."name" as "team_name",
  "x"."holder_kind",
  "x"."holder_name",
  "x"."school",
  "x"."award_name",
  "x"."created_at"
from
  "certificates" as "x"
  inner join "questions" as "q" on "q"."id" = "x"."question_id"
  inner join "competitions" as "c" on "c"."id" = "x"."competition_id"
  inner join "teams" as "t" on "t"."id" = "x"."team_id"
where
  "x"."file_key" != $1
  and "x"."team_id" = $2
order by
  "x"."question_id",
  "x"."holder_kind",
  "x"."id";

-- certificates.teamCompetition(teamId)
select
  "competition_id"
from
  "teams"
where
  "id" = $1;

-- certificates.templatePage(competitionId, q)
select
  count(*) as "total"
from
  "certificate_templates"
where
  "competition_id" = $1;
-- stops here: no row

-- certificates.templateRunning(templateId)
select
  "question_id"
from
  "certificate_runs"
where
  "template_id" = $1
  and "state" = $2;

-- certificates.updateCertificate(id, set)
update "certificates"
set
  "id" = $1,
  "created_at" = $2,
  "competition_id" = $3,
  "cert_no" = $4,
  "verify_code" = $5,
  "question_id" = $6,
  "team_id" = $7,
  "holder_kind" = $8,
  "holder_ref" = $9,
  "user_id" = $10,
  "holder_name" = $11,
  "school" = $12,
  "award_name" = $13,
  "file_key" = $14
where
  "id" = $15;

-- certificates.updateTemplate(id, set)
update "certificate_templates"
set
  "id" = $1,
  "name" = $2,
  "updated_at" = $3,
  "competition_id" = $4,
  "background_key" = $5,
  "width" = $6,
  "height" = $7,
  "fields_json" = $8
where
  "id" = $9
returning
  *;
-- stops here: no row

-- certificates.userCertificates(userId, competitionId)
select
  "x"."id",
  "x"."cert_no",
  "x"."competition_id",
  "c"."name" as "competition_name",
  "x"."question_id",
  "q"."title" as "question_title",
  "x"."team_id",
  "t"."name" as "team_name",
  "x"."holder_kind",
  "x"."holder_name",
  "x"."school",
  "x"."award_name",
  "x"."created_at"
from
  "certificates" as "x"
  inner join "questions" as "q" on "q"."id" = "x"."question_id"
  inner join "competitions" as "c" on "c"."id" = "x"."competition_id"
  inner join "teams" as "t" on "t"."id" = "x"."team_id"
where
  "x"."file_key" != $1
  and "x"."user_id" = $2
  and "x"."competition_id" = $3
order by
  "x"."id" desc;
