-- The SQL of server/src/modules/audit-log/repo.ts on postgres (server/test/sql-snapshots.test.ts writes this file).

-- audit-log.writeAudit(entry, db)
insert into
  "audit_log" (
    "actor_id",
    "action",
    "entity",
    "entity_id",
    "before_json",
    "after_json",
    "ip",
    "created_at"
  )
values
  ($1, $2, $3, $4, $5, $6, $7, $8);
