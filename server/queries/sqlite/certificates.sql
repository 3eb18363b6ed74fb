-- The SQL of server/src/modules/certificates/repo.ts on sqlite (server/test/sql-snapshots.test.ts writes this file).

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
  "g"."question_id" = ?
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
  "x"."file_key" != ?
  and "x"."cert_no" = ?;

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
  "x"."file_key" != ?
  and "x"."id" = ?;
-- stops here: no row

-- certificates.certificatesExcept(questionId, kept)
select
  "id",
  "file_key"
from
  "certificates"
where
  "question_id" = ?
  and "id" not in (?);

-- certificates.competitionUsesBackground(competitionId, key)
select
  "id"
from
  "certificate_templates"
where
  "competition_id" = ?
  and "background_key" = ?;

-- certificates.deleteCertificate(id)
delete from "certificates"
where
  "id" = ?;

-- certificates.deleteTemplate(id)
delete from "certificate_templates"
where
  "id" = ?;

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
  "x"."file_key" != ?
  and "x"."question_id" = ?
  and (
    lower("x"."holder_name") like ? escape '\'
    or lower("t"."name") like ? escape '\'
    or lower("x"."cert_no") like ? escape '\'
  )
order by
  "x"."id"
limit
  ?;

-- certificates.failRun(questionId, error, now)
update "certificate_runs"
set
  "state" = ?,
  "error" = ?,
  "updated_at" = ?
where
  "question_id" = ?;

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
  "id" = ?;

-- certificates.findFile(key)
select
  "key",
  "owner_id",
  "purpose"
from
  "files"
where
  "key" = ?;

-- certificates.findHolderCertificate(h)
select
  "id",
  "cert_no",
  "verify_code",
  "file_key"
from
  "certificates"
where
  "question_id" = ?
  and "team_id" = ?
  and "holder_kind" = ?
  and "holder_ref" = ?;

-- certificates.findRun(questionId)
select
  *
from
  "certificate_runs"
where
  "question_id" = ?;

-- certificates.findTemplate(id)
select
  *
from
  "certificate_templates"
where
  "id" = ?;

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
  "key" = ?
  and "purpose" = ?;

-- certificates.finishRun(questionId, total, done, now)
update "certificate_runs"
set
  "state" = ?,
  "total" = ?,
  "done" = ?,
  "updated_at" = ?
where
  "question_id" = ?;

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
  (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
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
  (?, ?, ?, ?, ?, ?, ?, ?)
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
  "x"."file_key" != ?
  and "x"."question_id" = ?
  and (
    lower("x"."holder_name") like ? escape '\'
    or lower("t"."name") like ? escape '\'
    or lower("x"."cert_no") like ? escape '\'
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
  "q"."id" = ?;
-- stops here: no row

-- certificates.relateTemplate(questionId, templateId, now)
insert into
  "certificate_runs" ("question_id", "template_id", "updated_at")
values
  (?, ?, ?)
on conflict ("question_id") do update
set
  "template_id" = ?,
  "updated_at" = ?;

-- certificates.setRunDone(questionId, done, now)
update "certificate_runs"
set
  "done" = ?,
  "updated_at" = ?
where
  "question_id" = ?;

-- certificates.startRun(questionId, total, now)
update "certificate_runs"
set
  "state" = ?,
  "total" = ?,
  "done" = ?,
  "error" = ?,
  "updated_at" = ?
where
  "question_id" = ?
  and "state" != ?;

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
  "x"."file_key" != ?
  and "x"."team_id" = ?
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
  "id" = ?;

-- certificates.templatePage(competitionId, q)
select
  count(*) as "total"
from
  "certificate_templates"
where
  "competition_id" = ?;
-- stops here: no row

-- certificates.templateRunning(templateId)
select
  "question_id"
from
  "certificate_runs"
where
  "template_id" = ?
  and "state" = ?;

-- certificates.updateCertificate(id, set)
update "certificates"
set
  "id" = ?,
  "created_at" = ?,
  "competition_id" = ?,
  "cert_no" = ?,
  "verify_code" = ?,
  "question_id" = ?,
  "team_id" = ?,
  "holder_kind" = ?,
  "holder_ref" = ?,
  "user_id" = ?,
  "holder_name" = ?,
  "school" = ?,
  "award_name" = ?,
  "file_key" = ?
where
  "id" = ?;

-- certificates.updateTemplate(id, set)
update "certificate_templates"
set
  "id" = ?,
  "name" = ?,
  "updated_at" = ?,
  "competition_id" = ?,
  "background_key" = ?,
  "width" = ?,
  "height" = ?,
  "fields_json" = ?
where
  "id" = ?
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
  "x"."file_key" != ?
  and "x"."user_id" = ?
  and "x"."competition_id" = ?
order by
  "x"."id" desc;
