-- The SQL of server/src/modules/works/repo.ts on postgres (server/test/sql-snapshots.test.ts writes this file).

-- works.appendQuestionFile(questionId, fileKey)
select
  max("sort") as "s"
from
  "question_files"
where
  "question_id" = $1;
insert into
  "question_files" ("question_id", "file_key", "sort")
values
  ($1, $2, $3);

-- works.chosenQuestion(userId, questionId)
select
  "q"."id" as "question_id",
  "q"."title",
  "q"."judging",
  "q"."competition_id",
  "c"."works_max_mb",
  "c"."works_types",
  "tc"."team_id"
from
  "questions" as "q"
  inner join "competitions" as "c" on "c"."id" = "q"."competition_id"
  inner join "team_choices" as "tc" on "tc"."question_id" = "q"."id"
  inner join "team_members" as "m" on "m"."team_id" = "tc"."team_id"
  and "m"."user_id" = $1
where
  "q"."id" = $2;

-- works.deleteUpload(uploadId)
delete from "work_uploads"
where
  "upload_id" = $1;

-- works.exportQuestionVersions(questionId, q, size)
select
  "w"."id",
  "w"."competition_id",
  "w"."question_id",
  "w"."team_id",
  "t"."team_no",
  "t"."name" as "team_name",
  "w"."version",
  "w"."file_key",
  "w"."file_name",
  "w"."size",
  "w"."sha256",
  "u"."username",
  "w"."completed_at",
  "w"."version" = (
    select
      max("last"."version") as "v"
    from
      "works" as "last"
    where
      "last"."team_id" = "w"."team_id"
      and "last"."question_id" = "w"."question_id"
  ) as "counts"
from
  "works" as "w"
  inner join "teams" as "t" on "t"."id" = "w"."team_id"
  inner join "users" as "u" on "u"."id" = "w"."user_id"
where
  "w"."question_id" = $1
  and "w"."id" in ($2)
  and (
    lower("t"."name") like $3 escape '\'
    or lower("t"."team_no") like $4 escape '\'
    or lower("w"."file_name") like $5 escape '\'
  )
  and "w"."version" = (
    select
      max("last"."version") as "v"
    from
      "works" as "last"
    where
      "last"."team_id" = "w"."team_id"
      and "last"."question_id" = "w"."question_id"
  )
order by
  "t"."team_no",
  "w"."version" desc
limit
  $6;

-- works.findSimilarityReport(questionId, teamId)
select
  *
from
  "similarity_reports"
where
  "question_id" = $1
  and "team_id" = $2;

-- works.findUpload(uploadId)
select
  *
from
  "work_uploads"
where
  "upload_id" = $1;

-- works.insertFile(row)
insert into
  "files" (
    "created_at",
    "key",
    "original_name",
    "mime",
    "size",
    "sha256",
    "visibility",
    "purpose",
    "id",
    "owner_id"
  )
values
  ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10);

-- works.insertNextVersion(v)
select
  max("version") as "v"
from
  "works"
where
  "team_id" = $1
  and "question_id" = $2;
insert into
  "works" (
    "competition_id",
    "question_id",
    "team_id",
    "user_id",
    "file_key",
    "file_name",
    "size",
    "sha256",
    "completed_at",
    "version"
  )
values
  ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
returning
  "id";
-- stops here: no row

-- works.insertUpload(row)
insert into
  "work_uploads" (
    "created_at",
    "competition_id",
    "question_id",
    "user_id",
    "size",
    "file_name",
    "upload_id",
    "team_id",
    "sha256",
    "kind"
  )
values
  ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10);

-- works.lockTeam(teamId)
select
  id
from
  teams
where
  id = $1
for update;

-- works.questionCompetition(questionId)
select
  "competition_id"
from
  "questions"
where
  "id" = $1;

-- works.questionVersions(questionId, q)
select
  count(*) as "total"
from
  "works" as "w"
  inner join "teams" as "t" on "t"."id" = "w"."team_id"
  inner join "users" as "u" on "u"."id" = "w"."user_id"
where
  "w"."question_id" = $1
  and "w"."id" in ($2)
  and (
    lower("t"."name") like $3 escape '\'
    or lower("t"."team_no") like $4 escape '\'
    or lower("w"."file_name") like $5 escape '\'
  )
  and "w"."version" = (
    select
      max("last"."version") as "v"
    from
      "works" as "last"
    where
      "last"."team_id" = "w"."team_id"
      and "last"."question_id" = "w"."question_id"
  );
-- stops here: no row

-- works.saveSimilarityReport(row)
insert into
  "similarity_reports" (
    "question_id",
    "team_id",
    "file_key",
    "file_name",
    "declared_rate",
    "created_at"
  )
values
  ($1, $2, $3, $4, $5, $6)
on conflict ("question_id", "team_id") do update
set
  "file_key" = $7,
  "file_name" = $8,
  "declared_rate" = $9,
  "created_at" = $10;

-- works.teamOfUser(competitionId, userId)
select
  "team_id"
from
  "team_members"
where
  "competition_id" = $1
  and "user_id" = $2;

-- works.teamStorageUsed(teamId)
select
  sum("size") as "bytes"
from
  "works"
where
  "team_id" = $1;
select
  sum("size") as "bytes"
from
  "work_uploads"
where
  "team_id" = $1;

-- works.teamVersions(questionId, teamId)
select
  "w"."id",
  "w"."competition_id",
  "w"."question_id",
  "w"."team_id",
  "t"."team_no",
  "t"."name" as "team_name",
  "w"."version",
  "w"."file_key",
  "w"."file_name",
  "w"."size",
  "w"."sha256",
  "u"."username",
  "w"."completed_at",
  "w"."version" = (
    select
      max("last"."version") as "v"
    from
      "works" as "last"
    where
      "last"."team_id" = "w"."team_id"
      and "last"."question_id" = "w"."question_id"
  ) as "counts"
from
  "works" as "w"
  inner join "teams" as "t" on "t"."id" = "w"."team_id"
  inner join "users" as "u" on "u"."id" = "w"."user_id"
where
  "w"."question_id" = $1
  and "w"."team_id" = $2
order by
  "w"."version" desc;

-- works.uploadsStartedBefore(before)
select
  "upload_id"
from
  "work_uploads"
where
  "created_at" < $1;

-- works.uploadWithMembership(uploadId, userId)
select
  "u"."user_id",
  "u"."kind",
  "u"."team_id",
  "m"."user_id" as "member_id"
from
  "work_uploads" as "u"
  left join "team_members" as "m" on "m"."team_id" = "u"."team_id"
  and "m"."user_id" = $1
where
  "u"."upload_id" = $2;

-- works.workOfFile(key)
select
  "w"."team_id",
  "w"."competition_id",
  "c"."org_id"
from
  "works" as "w"
  inner join "competitions" as "c" on "c"."id" = "w"."competition_id"
where
  "w"."file_key" = $1;
