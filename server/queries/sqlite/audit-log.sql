-- The SQL of server/src/modules/audit-log/repo.ts on sqlite (server/test/sql-snapshots.test.ts writes this file).

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
  (?, ?, ?, ?, ?, ?, ?, ?);
