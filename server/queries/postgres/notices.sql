-- The SQL of server/src/modules/notices/repo.ts on postgres (server/test/sql-snapshots.test.ts writes this file).

-- notices.addCopies(userId, notices)
insert into
  "notice_recipients" ("notice_id", "user_id", "kind", "published_at")
values
  ($1, $2, $3, $4)
on conflict ("notice_id", "user_id") do nothing
returning
  "notice_id";

-- notices.advanceDelivery(id, v)
update "notices"
set
  "delivered" = "delivered" + $1,
  "delivery_cursor" = $2,
  "recipients" = "delivered" + $3,
  "delivered_at" = $4
where
  "id" = $5
  and "delivery_cursor" = $6
  and "delivered_at" is null;

-- notices.batchEnd(target, after, ceiling, size)
select distinct
  "m"."user_id"
from
  "team_members" as "m"
where
  "m"."competition_id" = $1
  and "m"."user_id" > $2
  and "m"."user_id" <= $3
  and exists (
    select
      "r"."id"
    from
      "registers" as "r"
    where
      "r"."team_id" = "m"."team_id"
      and "r"."status" = $4
  )
  and exists (
    select
      "o"."id"
    from
      "orders" as "o"
    where
      "o"."team_id" = "m"."team_id"
      and "o"."pay_status" = $5
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
  $6
offset
  $7;

-- notices.competitionOrg(id)
select
  "org_id"
from
  "competitions"
where
  "id" = $1;

-- notices.copiesPage(userId, q, narrow)
select
  count(*) as "total"
from
  "notice_recipients" as "r"
  inner join "notices" as "n" on "n"."id" = "r"."notice_id"
where
  "r"."user_id" = $1;
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
      "m"."competition_id" = $1
      and "m"."user_id" > $2
      and "m"."user_id" <= $3
      and exists (
        select
          "r"."id"
        from
          "registers" as "r"
        where
          "r"."team_id" = "m"."team_id"
          and "r"."status" = $4
      )
      and exists (
        select
          "o"."id"
        from
          "orders" as "o"
        where
          "o"."team_id" = "m"."team_id"
          and "o"."pay_status" = $5
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
  "id" = $1;

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
  "id" = $1;

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
  "n"."org_id" = $1
  and "n"."id" = $2;

-- notices.findState(id)
select
  "kind",
  "target_json",
  "status",
  "publish_at"
from
  "notices"
where
  "id" = $1;

-- notices.hasCopy(userId, noticeId)
select
  "notice_id"
from
  "notice_recipients"
where
  "notice_id" = $1
  and "user_id" = $2;

-- notices.insertCopies(v)
insert into
  "notice_recipients" ("notice_id", "user_id", "kind", "published_at")
select
  $1 as "notice_id",
  "x"."user_id",
  $2 as "kind",
  $3 as "published_at"
from
  (
    select distinct
      "m"."user_id"
    from
      "team_members" as "m"
    where
      "m"."competition_id" = $4
      and "m"."user_id" > $5
      and "m"."user_id" <= $6
      and exists (
        select
          "r"."id"
        from
          "registers" as "r"
        where
          "r"."team_id" = "m"."team_id"
          and "r"."status" = $7
      )
      and exists (
        select
          "o"."id"
        from
          "orders" as "o"
        where
          "o"."team_id" = "m"."team_id"
          and "o"."pay_status" = $8
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
  "x"."user_id" > $9
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
  ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
returning
  "id";
-- stops here: no row

-- notices.markRead(userId, which, now)
update "notice_recipients"
set
  "read_at" = $1
where
  "user_id" = $2
  and "read_at" is null
  and "notice_id" = $3
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
  "n"."org_id" = $1
  and "n"."kind" = $2
  and "n"."status" = $3
  and lower("n"."title") like $4 escape '\';
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
  "o"."id" in ($1);

-- notices.recipientIds(noticeId)
select
  "user_id"
from
  "notice_recipients"
where
  "notice_id" = $1;

-- notices.recipientQuery(target, range)
select
  "m"."user_id"
from
  "team_members" as "m"
where
  "m"."competition_id" = $1
  and "m"."user_id" > $2
  and "m"."user_id" <= $3
  and exists (
    select
      "r"."id"
    from
      "registers" as "r"
    where
      "r"."team_id" = "m"."team_id"
      and "r"."status" = $4
  )
  and exists (
    select
      "o"."id"
    from
      "orders" as "o"
    where
      "o"."team_id" = "m"."team_id"
      and "o"."pay_status" = $5
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
  "m"."competition_id" = $1
  and exists (
    select
      "r"."id"
    from
      "registers" as "r"
    where
      "r"."team_id" = "m"."team_id"
      and "r"."status" = $2
  )
  and exists (
    select
      "o"."id"
    from
      "orders" as "o"
    where
      "o"."team_id" = "m"."team_id"
      and "o"."pay_status" = $3
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
  "status" = $1,
  "publish_at" = $2,
  "updated_at" = $3
where
  "id" = $4
  and "status" != $5;

-- notices.startDelivery(id, v)
update "notices"
set
  "status" = $1,
  "published_at" = $2,
  "updated_at" = $3
where
  "id" = $4
  and "status" in ($5);

-- notices.teamUserIds(teamIds)
select
  "user_id"
from
  "team_members"
where
  "team_id" in ($1);

-- notices.uncopiedNotices(userId, competitionId)
select
  "n"."id",
  "n"."kind",
  "n"."target_json",
  "n"."published_at"
from
  "notices" as "n"
where
  "n"."status" = $1
  and "n"."competition_id" in (
    select
      "m"."competition_id"
    from
      "team_members" as "m"
    where
      "m"."user_id" = $2
  )
  and not exists (
    select
      "r"."notice_id"
    from
      "notice_recipients" as "r"
    where
      "r"."notice_id" = "n"."id"
      and "r"."user_id" = $3
  )
  and "n"."competition_id" = $4;

-- notices.unreadByKind(userId)
select
  "kind",
  count(*) as "n"
from
  "notice_recipients"
where
  "user_id" = $1
  and "read_at" is null
group by
  "kind";

-- notices.updateUnpublished(id, v)
update "notices"
set
  "kind" = $1,
  "title" = $2,
  "content" = $3,
  "target_json" = $4,
  "competition_id" = $5,
  "by_email" = $6,
  "by_sms" = $7,
  "updated_at" = $8
where
  "id" = $9
  and "status" != $10;

-- notices.usernames(ids)
select
  "username"
from
  "users"
where
  "id" in ($1);
