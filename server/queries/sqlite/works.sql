-- The SQL of server/src/modules/works/repo.ts on sqlite (server/test/sql-snapshots.test.ts writes this file).

-- works.appendQuestionFile(questionId, fileKey)
select
  max("sort") as "s"
from
  "question_files"
where
  "question_id" = ?;
insert into
  "question_files" ("question_id", "file_key", "sort")
values
  (?, ?, ?);

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
  and "m"."user_id" = ?
where
  "q"."id" = ?;

-- works.deleteUpload(uploadId)
delete from "work_uploads"
where
  "upload_id" = ?;

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
  "w"."question_id" = ?
  and "w"."id" in (?)
  and (
    lower("t"."name") like ? escape '\'
    or lower("t"."team_no") like ? escape '\'
    or lower("w"."file_name") like ? escape '\'
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
  ?;

-- works.findSimilarityReport(questionId, teamId)
select
  *
from
  "similarity_reports"
where
  "question_id" = ?
  and "team_id" = ?;

-- works.findUpload(uploadId)
select
  *
from
  "work_uploads"
where
  "upload_id" = ?;

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
  (?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

-- works.insertNextVersion(v)
select
  max("version") as "v"
from
  "works"
where
  "team_id" = ?
  and "question_id" = ?;
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
  (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
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
  (?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

-- works.lockTeam(teamId)
select
  id
from
  teams
where
  id = ? for
update;

-- works.questionCompetition(questionId)
select
  "competition_id"
from
  "questions"
where
  "id" = ?;

-- works.questionVersions(questionId, q)
select
  count(*) as "total"
from
  "works" as "w"
  inner join "teams" as "t" on "t"."id" = "w"."team_id"
  inner join "users" as "u" on "u"."id" = "w"."user_id"
where
  "w"."question_id" = ?
  and "w"."id" in (?)
  and (
    lower("t"."name") like ? escape '\'
    or lower("t"."team_no") like ? escape '\'
    or lower("w"."file_name") like ? escape '\'
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
  (?, ?, ?, ?, ?, ?)
on conflict ("question_id", "team_id") do update
set
  "file_key" = ?,
  "file_name" = ?,
  "declared_rate" = ?,
  "created_at" = ?;

-- works.teamOfUser(competitionId, userId)
select
  "team_id"
from
  "team_members"
where
  "competition_id" = ?
  and "user_id" = ?;

-- works.teamStorageUsed(teamId)
select
  sum("size") as "bytes"
from
  "works"
where
  "team_id" = ?;
select
  sum("size") as "bytes"
from
  "work_uploads"
where
  "team_id" = ?;

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
  "w"."question_id" = ?
  and "w"."team_id" = ?
order by
  "w"."version" desc;

-- works.uploadsStartedBefore(before)
select
  "upload_id"
from
  "work_uploads"
where
  "created_at" < ?;

-- works.uploadWithMembership(uploadId, userId)
select
  "u"."user_id",
  "u"."kind",
  "u"."team_id",
  "m"."user_id" as "member_id"
from
  "work_uploads" as "u"
  left join "team_members" as "m" on "m"."team_id" = "u"."team_id"
  and "m"."user_id" = ?
where
  "u"."upload_id" = ?;

-- works.workOfFile(key)
select
  "w"."team_id",
  "w"."competition_id",
  "c"."org_id"
from
  "works" as "w"
  inner join "competitions" as "c" on "c"."id" = "w"."competition_id"
where
  "w"."file_key" = ?;
