-- The SQL of server/src/modules/outbox/repo.ts on sqlite (server/test/sql-snapshots.test.ts writes this file).

-- outbox.addOptout(v)
insert into
  "message_optouts" ("user_id", "kind", "channel", "created_at")
values
  (?, ?, ?, ?)
on conflict ("user_id", "kind", "channel") do nothing;

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
  "id" = ?;

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
  (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
on conflict ("idempotency_key") do nothing
returning
  "id";

-- outbox.nextQueued(after, limit, now)
select
  "org_id"
from
  "outbox_messages"
where
  "state" = ?
  and "org_id" > ?
order by
  "org_id"
limit
  ?;

-- outbox.noticeCounts(noticeIds)
select
  *
from
  "outbox_tallies"
where
  "notice_id" in (?);

-- outbox.optouts(userId)
select
  "kind",
  "channel"
from
  "message_optouts"
where
  "user_id" = ?;

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
  ? as "channel",
  "u"."verified_email" as "recipient",
  ? as "purpose",
  ? as "subject",
  ? as "body",
  cast(? as text) || cast(u.id as text) as "idempotency_key",
  ? as "sender_id",
  ? as "org_id",
  "u"."id" as "user_id",
  ? as "notice_id",
  ? as "created_at",
  ? as "updated_at"
from
  "users" as "u"
where
  "u"."id" in (?)
  and "u"."verified_email" is not null
  and "u"."status" = ?
  and not exists (
    select
      "o"."user_id"
    from
      "message_optouts" as "o"
    where
      "o"."user_id" = "u"."id"
      and "o"."kind" = ?
      and "o"."channel" = ?
  )
on conflict ("idempotency_key") do nothing;

-- outbox.reachable(users, kind)
-- stops here: Cannot read properties of undefined (reading 'kind')

-- outbox.setOptouts(userId, off, now)
delete from "message_optouts"
where
  "user_id" = ?;
insert into
  "message_optouts" ("user_id", "kind", "channel", "created_at")
values
  (?, ?, ?, ?);

-- outbox.settle(id, from, v)
update "outbox_messages"
set
  "state" = ?,
  "updated_at" = ?,
  "error" = ?,
  "provider_message_id" = ?,
  "sent_at" = ?,
  "body" = ?,
  "retry_at" = ?
where
  "id" = ?
  and "state" = ?;

-- outbox.tally(noticeId, channel, column, n)
insert into
  "outbox_tallies" ("notice_id", "channel", "sent")
values
  (?, ?, ?)
on conflict ("notice_id", "channel") do update
set
  "sent" = "outbox_tallies"."sent" + ?;

-- outbox.verifiedAddresses(userId)
select
  "verified_email",
  "verified_phone",
  "email",
  "phone"
from
  "users"
where
  "id" = ?;
