-- The SQL of server/src/modules/outbox/repo.ts on postgres (server/test/sql-snapshots.test.ts writes this file).

-- outbox.claim(id, now)
update "outbox_messages"
set
  "state" = $1,
  "attempts" = "attempts" + $2,
  "updated_at" = $3
where
  "id" = $4
  and "state" = $5
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
  "id" = $1;

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
  (
    $1,
    $2,
    $3,
    $4,
    $5,
    $6,
    $7,
    $8,
    $9,
    $10,
    $11,
    $12,
    $13,
    $14
  )
on conflict ("idempotency_key") do nothing
returning
  "id";

-- outbox.settle(id, from, v)
update "outbox_messages"
set
  "state" = $1,
  "updated_at" = $2,
  "error" = $3,
  "provider_message_id" = $4,
  "sent_at" = $5,
  "body" = $6
where
  "id" = $7
  and "state" = $8;
