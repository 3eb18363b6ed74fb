-- The SQL of server/src/modules/files/repo.ts on postgres (server/test/sql-snapshots.test.ts writes this file).

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
