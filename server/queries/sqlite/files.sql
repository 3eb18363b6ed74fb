-- The SQL of server/src/modules/files/repo.ts on sqlite (server/test/sql-snapshots.test.ts writes this file).

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
