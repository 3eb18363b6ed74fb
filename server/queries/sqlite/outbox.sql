-- The SQL of server/src/modules/outbox/repo.ts on sqlite (server/test/sql-snapshots.test.ts writes this file).

-- outbox.claim(id, now)
update "outbox_messages"
set
  "state" = ?,
  "attempts" = "attempts" + ?,
  "updated_at" = ?
where
  "id" = ?
  and "state" = ?
returning
  "id",
  "channel",
  "recipient",
  "subject",
  "body",
  "idempotency_key",
  "attempts";

-- outbox.findMessage(id)
select
  *
from
  "outbox_messages"
where
  "id" = ?;

-- outbox.insertMessage(v)
insert into
  "outbox_messages" (
    "error",
    "id",
    "created_at",
    "updated_at",
    "org_id",
    "purpose",
    "channel",
    "recipient",
    "subject",
    "body",
    "idempotency_key",
    "sender_id",
    "provider_message_id",
    "sent_at"
  )
values
  (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
on conflict ("idempotency_key") do nothing
returning
  "id";

-- outbox.settle(id, from, v)
update "outbox_messages"
set
  "state" = ?,
  "updated_at" = ?,
  "error" = ?,
  "provider_message_id" = ?,
  "sent_at" = ?,
  "body" = ?
where
  "id" = ?
  and "state" = ?;
