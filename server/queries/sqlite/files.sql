-- The SQL of server/src/modules/files/repo.ts on sqlite (server/test/sql-snapshots.test.ts writes this file).

-- files.deleteFileRecord(key)
delete from "files"
where
  "key" = ?;

-- files.fileOwner(key)
select
  "owner_id",
  "purpose"
from
  "files"
where
  "key" = ?;

-- files.findFile(key)
select
  *
from
  "files"
where
  "key" = ?;

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
  (?, ?, ?, ?, ?, ?, ?, ?, ?);

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
          "answer_key" = ?
          or "answer_index_key" = ?
          or "scorer_key" = ?
        )
    )
    or exists (
      select
        "question_id"
      from
        "question_files"
      where
        "file_key" = ?
    )
    or exists (
      select
        "id"
      from
        "similarity_exclusions"
      where
        "file_key" = ?
    )
    or exists (
      select
        "id"
      from
        "certificate_templates"
      where
        "background_key" = ?
    )
    or exists (
      select
        "id"
      from
        "competitions"
      where
        "cover" = ?
    )
  ) as "held";
-- stops here: no row
