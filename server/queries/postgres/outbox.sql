-- The SQL of server/src/modules/outbox/repo.ts on postgres (server/test/sql-snapshots.test.ts writes this file).

-- outbox.addOptout(v)
insert into
  "message_optouts" ("user_id", "kind", "channel", "created_at")
values
  ($1, $2, $3, $4)
on conflict ("user_id", "kind", "channel") do nothing;

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
  "purpose",
  "subject",
  "body",
  "idempotency_key",
  "attempts",
  "user_id",
  "notice_id";

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
    "user_id",
    "org_id",
    "purpose",
    "notice_id",
    "channel",
    "recipient",
    "subject",
    "body",
    "idempotency_key",
    "sender_id",
    "provider_message_id",
    "sent_at",
    "retry_at"
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
    $14,
    $15,
    $16,
    $17
  )
on conflict ("idempotency_key") do nothing
returning
  "id";

-- outbox.nextQueued(after, limit, now)
select
  "org_id"
from
  "outbox_messages"
where
  "state" = $1
  and "org_id" > $2
order by
  "org_id"
limit
  $3;

-- outbox.noticeCounts(noticeIds)
select
  *
from
  "outbox_tallies"
where
  "notice_id" in ($1);

-- outbox.optouts(userId)
select
  "kind",
  "channel"
from
  "message_optouts"
where
  "user_id" = $1;

-- outbox.queueForUsers(v)
insert into
  "outbox_messages" (
    "channel",
    "recipient",
    "purpose",
    "subject",
    "body",
    "idempotency_key",
    "sender_id",
    "org_id",
    "user_id",
    "notice_id",
    "created_at",
    "updated_at"
  )
select
  $1 as "channel",
  "u"."verified_email" as "recipient",
  $2 as "purpose",
  $3 as "subject",
  $4 as "body",
  cast($5 as text) || cast(u.id as text) as "idempotency_key",
  $6 as "sender_id",
  $7 as "org_id",
  "u"."id" as "user_id",
  $8 as "notice_id",
  $9 as "created_at",
  $10 as "updated_at"
from
  "users" as "u"
where
  "u"."id" in ($11)
  and "u"."verified_email" is not null
  and "u"."status" = $12
  and not exists (
    select
      "o"."user_id"
    from
      "message_optouts" as "o"
    where
      "o"."user_id" = "u"."id"
      and "o"."kind" = $13
      and "o"."channel" = $14
  )
on conflict ("idempotency_key") do nothing;

-- outbox.reachable(users, kind)
-- stops here: Cannot read properties of undefined (reading 'kind')

-- outbox.setOptouts(userId, off, now)
delete from "message_optouts"
where
  "user_id" = $1;
insert into
  "message_optouts" ("user_id", "kind", "channel", "created_at")
values
  ($1, $2, $3, $4);

-- outbox.settle(id, from, v)
update "outbox_messages"
set
  "state" = $1,
  "updated_at" = $2,
  "error" = $3,
  "provider_message_id" = $4,
  "sent_at" = $5,
  "body" = $6,
  "retry_at" = $7
where
  "id" = $8
  and "state" = $9;

-- outbox.tally(noticeId, channel, column, n)
insert into
  "outbox_tallies" ("notice_id", "channel", "sent")
values
  ($1, $2, $3)
on conflict ("notice_id", "channel") do update
set
  "sent" = "outbox_tallies"."sent" + $4;

-- outbox.verifiedAddresses(userId)
select
  "verified_email",
  "verified_phone",
  "email",
  "phone"
from
  "users"
where
  "id" = $1;
