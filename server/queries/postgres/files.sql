-- The SQL of server/src/modules/files/repo.ts on postgres (server/test/sql-snapshots.test.ts writes this file).

-- files.deleteFileRecord(key)
delete from "files"
where
  "key" = $1;

-- files.fileOwner(key)
select
  "owner_id",
  "purpose"
from
  "files"
where
  "key" = $1;

-- files.findFile(key)
select
  *
from
  "files"
where
  "key" = $1;

-- files.insertFile(file)
insert into
  "files" (
    "created_at",
    "key",
    "original_name",
    "mime",
    "size",
    "sha256",
    "owner_id",
    "visibility",
    "purpose"
  )
values
  ($1, $2, $3, $4, $5, $6, $7, $8, $9);

-- files.isHeld(key)
select
  (
    exists (
      select
        "id"
      from
        "questions"
      where
        (
          "answer_key" = $1
          or "answer_index_key" = $2
          or "scorer_key" = $3
        )
    )
    or exists (
      select
        "question_id"
      from
        "question_files"
      where
        "file_key" = $4
    )
    or exists (
      select
        "id"
      from
        "similarity_exclusions"
      where
        "file_key" = $5
    )
    or exists (
      select
        "id"
      from
        "certificate_templates"
      where
        "background_key" = $6
    )
    or exists (
      select
        "id"
      from
        "competitions"
      where
        "cover" = $7
    )
  ) as "held";
-- stops here: no row
