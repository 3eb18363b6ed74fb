-- The SQL of server/src/modules/notices/repo.ts on sqlite (server/test/sql-snapshots.test.ts writes this file).

-- notices.addCopies(userId, notices)
insert into
  "notice_recipients" ("notice_id", "user_id", "kind", "published_at")
values
  (?, ?, ?, ?)
on conflict ("notice_id", "user_id") do nothing
returning
  "notice_id";

-- notices.advanceDelivery(id, v)
update "notices"
set
  "delivered" = "delivered" + ?,
  "delivery_cursor" = ?,
  "recipients" = "delivered" + ?,
  "delivered_at" = ?
where
  "id" = ?
  and "delivery_cursor" = ?
  and "delivered_at" is null;

-- notices.batchEnd(target, after, ceiling, size)
select distinct
  "m"."user_id"
from
  "team_members" as "m"
where
  "m"."competition_id" = ?
  and "m"."user_id" > ?
  and "m"."user_id" <= ?
  and exists (
    select
      "r"."id"
    from
      "registers" as "r"
    where
      "r"."team_id" = "m"."team_id"
      and "r"."status" = ?
  )
  and exists (
    select
      "o"."id"
    from
      "orders" as "o"
    where
      "o"."team_id" = "m"."team_id"
      and "o"."pay_status" = ?
  )
  and exists (
    select
      "w"."id"
    from
      "works" as "w"
    where
      "w"."team_id" = "m"."team_id"
  )
order by
  "user_id"
limit
  ?
offset
  ?;

-- notices.competitionOrg(id)
select
  "org_id"
from
  "competitions"
where
  "id" = ?;

-- notices.copiesPage(userId, q, narrow)
select
  count(*) as "total"
from
  "notice_recipients" as "r"
  inner join "notices" as "n" on "n"."id" = "r"."notice_id"
where
  "r"."user_id" = ?;
-- stops here: no row

-- notices.countRecipients(target, upTo)
select
  count(*) as "count"
from
  (
    select distinct
      "m"."user_id"
    from
      "team_members" as "m"
    where
      "m"."competition_id" = ?
      and "m"."user_id" > ?
      and "m"."user_id" <= ?
      and exists (
        select
          "r"."id"
        from
          "registers" as "r"
        where
          "r"."team_id" = "m"."team_id"
          and "r"."status" = ?
      )
      and exists (
        select
          "o"."id"
        from
          "orders" as "o"
        where
          "o"."team_id" = "m"."team_id"
          and "o"."pay_status" = ?
      )
      and exists (
        select
          "w"."id"
        from
          "works" as "w"
        where
          "w"."team_id" = "m"."team_id"
      )
  ) as "r";
-- stops here: no row

-- notices.deleteNotice(id)
delete from "notices"
where
  "id" = ?;

-- notices.deliveryState(id)
select
  "kind",
  "target_json",
  "status",
  "published_at",
  "delivery_cursor",
  "delivery_ceiling",
  "delivered_at",
  "title",
  "content",
  "org_id",
  "author_id",
  "by_email",
  "by_sms"
from
  "notices"
where
  "id" = ?;

-- notices.findManaged(scope, id)
select
  "n"."id",
  "n"."kind",
  "n"."title",
  "n"."content",
  "n"."target_json",
  "c"."name" as "competition_name",
  "n"."status",
  "n"."publish_at",
  "n"."published_at",
  "n"."source",
  "n"."recipients",
  "n"."delivered",
  "n"."delivered_at",
  "n"."reads",
  "u"."username" as "author",
  "n"."org_id",
  "n"."created_at",
  "n"."updated_at",
  "n"."by_email",
  "n"."by_sms"
from
  "notices" as "n"
  left join "competitions" as "c" on "c"."id" = "n"."competition_id"
  left join "users" as "u" on "u"."id" = "n"."author_id"
where
  "n"."org_id" = ?
  and "n"."id" = ?;

-- notices.findState(id)
select
  "kind",
  "target_json",
  "status",
  "publish_at"
from
  "notices"
where
  "id" = ?;

-- notices.hasCopy(userId, noticeId)
select
  "notice_id"
from
  "notice_recipients"
where
  "notice_id" = ?
  and "user_id" = ?;

-- notices.insertCopies(v)
insert into
  "notice_recipients" ("notice_id", "user_id", "kind", "published_at")
select
  ? as "notice_id",
  "x"."user_id",
  ? as "kind",
  ? as "published_at"
from
  (
    select distinct
      "m"."user_id"
    from
      "team_members" as "m"
    where
      "m"."competition_id" = ?
      and "m"."user_id" > ?
      and "m"."user_id" <= ?
      and exists (
        select
          "r"."id"
        from
          "registers" as "r"
        where
          "r"."team_id" = "m"."team_id"
          and "r"."status" = ?
      )
      and exists (
        select
          "o"."id"
        from
          "orders" as "o"
        where
          "o"."team_id" = "m"."team_id"
          and "o"."pay_status" = ?
      )
      and exists (
        select
          "w"."id"
        from
          "works" as "w"
        where
          "w"."team_id" = "m"."team_id"
      )
  ) as "x"
where
  "x"."user_id" > ?
on conflict ("notice_id", "user_id") do nothing
returning
  "user_id";

-- notices.insertNotice(v)
insert into
  "notices" (
    "kind",
    "title",
    "content",
    "target_json",
    "competition_id",
    "by_email",
    "by_sms",
    "org_id",
    "author_id",
    "source",
    "created_at",
    "updated_at"
  )
values
  (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
returning
  "id";
-- stops here: no row

-- notices.markRead(userId, which, now)
update "notice_recipients"
set
  "read_at" = ?
where
  "user_id" = ?
  and "read_at" is null
  and "notice_id" = ?
returning
  "notice_id";

-- notices.maxUserId()
select
  max("id") as "id"
from
  "users";

-- notices.noticePage(scope, q)
select
  count(*) as "total"
from
  "notices" as "n"
  left join "competitions" as "c" on "c"."id" = "n"."competition_id"
  left join "users" as "u" on "u"."id" = "n"."author_id"
where
  "n"."org_id" = ?
  and "n"."kind" = ?
  and "n"."status" = ?
  and lower("n"."title") like ? escape '\';
-- stops here: no row

-- notices.ordersWithCompetition(orderIds)
select
  "o"."order_no",
  "o"."team_id",
  "c"."name"
from
  "orders" as "o"
  inner join "competitions" as "c" on "c"."id" = "o"."competition_id"
where
  "o"."id" in (?);

-- notices.recipientIds(noticeId)
select
  "user_id"
from
  "notice_recipients"
where
  "notice_id" = ?;

-- notices.recipientQuery(target, range)
select
  "m"."user_id"
from
  "team_members" as "m"
where
  "m"."competition_id" = ?
  and "m"."user_id" > ?
  and "m"."user_id" <= ?
  and exists (
    select
      "r"."id"
    from
      "registers" as "r"
    where
      "r"."team_id" = "m"."team_id"
      and "r"."status" = ?
  )
  and exists (
    select
      "o"."id"
    from
      "orders" as "o"
    where
      "o"."team_id" = "m"."team_id"
      and "o"."pay_status" = ?
  )
  and exists (
    select
      "w"."id"
    from
      "works" as "w"
    where
      "w"."team_id" = "m"."team_id"
  );

-- notices.recipientUsers(target)
select
  "m"."user_id"
from
  "team_members" as "m"
where
  "m"."competition_id" = ?
  and exists (
    select
      "r"."id"
    from
      "registers" as "r"
    where
      "r"."team_id" = "m"."team_id"
      and "r"."status" = ?
  )
  and exists (
    select
      "o"."id"
    from
      "orders" as "o"
    where
      "o"."team_id" = "m"."team_id"
      and "o"."pay_status" = ?
  )
  and exists (
    select
      "w"."id"
    from
      "works" as "w"
    where
      "w"."team_id" = "m"."team_id"
  );

-- notices.schedule(id, publishAt, now)
update "notices"
set
  "status" = ?,
  "publish_at" = ?,
  "updated_at" = ?
where
  "id" = ?
  and "status" != ?;

-- notices.startDelivery(id, v)
update "notices"
set
  "status" = ?,
  "published_at" = ?,
  "updated_at" = ?
where
  "id" = ?
  and "status" in (?);

-- notices.teamUserIds(teamIds)
select
  "user_id"
from
  "team_members"
where
  "team_id" in (?);

-- notices.uncopiedNotices(userId, competitionId)
select
  "n"."id",
  "n"."kind",
  "n"."target_json",
  "n"."published_at"
from
  "notices" as "n"
where
  "n"."status" = ?
  and "n"."competition_id" in (
    select
      "m"."competition_id"
    from
      "team_members" as "m"
    where
      "m"."user_id" = ?
  )
  and not exists (
    select
      "r"."notice_id"
    from
      "notice_recipients" as "r"
    where
      "r"."notice_id" = "n"."id"
      and "r"."user_id" = ?
  )
  and "n"."competition_id" = ?;

-- notices.unreadByKind(userId)
select
  "kind",
  count(*) as "n"
from
  "notice_recipients"
where
  "user_id" = ?
  and "read_at" is null
group by
  "kind";

-- notices.updateUnpublished(id, v)
update "notices"
set
  "kind" = ?,
  "title" = ?,
  "content" = ?,
  "target_json" = ?,
  "competition_id" = ?,
  "by_email" = ?,
  "by_sms" = ?,
  "updated_at" = ?
where
  "id" = ?
  and "status" != ?;

-- notices.usernames(ids)
select
  "username"
from
  "users"
where
  "id" in (?);
