-- The SQL of server/src/modules/orders/repo.ts on postgres (server/test/sql-snapshots.test.ts writes this file).

-- orders.closeExpired(createdBefore, now)
update "orders"
set
  "pay_status" = $1,
  "closed_at" = $2,
  "updated_at" = $3
where
  "pay_status" = $4
  and "created_at" < $5
  and "voucher" is null
returning
  "id";

-- orders.countOrdersOfOrg(ids, scope)
select
  count(*) as "n"
from
  "orders" as "o"
  inner join "competitions" as "c" on "c"."id" = "o"."competition_id"
where
  "o"."id" in ($1)
  and "c"."org_id" = $2;
-- stops here: no row

-- orders.currentOrderOfTeam(teamId)
select
  "o"."id",
  "o"."order_no",
  "o"."competition_id",
  "c"."name" as "competition_name",
  "c"."org_id",
  "o"."team_id",
  "t"."team_no",
  "t"."name" as "team_name",
  "t"."school_name",
  "t"."group_name",
  "o"."user_id",
  "u"."username",
  "o"."amount",
  "o"."pay_status",
  "o"."pay_method",
  "o"."trade_no",
  "o"."payer_org",
  "o"."voucher",
  "o"."paid_at",
  "o"."closed_at",
  "o"."refunded_at",
  "o"."refund_reason",
  "o"."refund_flag",
  "c"."invoice_enable",
  "o"."created_at"
from
  "orders" as "o"
  inner join "competitions" as "c" on "c"."id" = "o"."competition_id"
  inner join "teams" as "t" on "t"."id" = "o"."team_id"
  inner join "users" as "u" on "u"."id" = "o"."user_id"
where
  "o"."team_id" = $1
order by
  "o"."id" desc;

-- orders.exportOrders(q, scope, size)
select
  "o"."id"
from
  "orders" as "o"
where
  "o"."competition_id" in (
    select
      "c"."id"
    from
      "competitions" as "c"
    where
      "c"."org_id" = $1
  )
  and "o"."competition_id" = $2
  and "o"."pay_status" = $3
  and "o"."pay_method" = $4
  and "o"."pay_status" = $5
  and "o"."voucher" is not null
  and "o"."id" in ($6)
  and (
    lower("o"."order_no") like $7 escape '\'
    or exists (
      select
        "teams"."id"
      from
        "teams"
      where
        "teams"."id" = "o"."team_id"
        and (
          lower("teams"."team_no") like $8 escape '\'
          or lower("teams"."name") like $9 escape '\'
        )
    )
    or exists (
      select
        "users"."id"
      from
        "users"
      where
        "users"."id" = "o"."user_id"
        and lower("users"."username") like $10 escape '\'
    )
  )
order by
  "o"."id" desc
limit
  $11;

-- orders.findOrder(id)
select
  "o"."id",
  "o"."order_no",
  "o"."competition_id",
  "c"."name" as "competition_name",
  "c"."org_id",
  "o"."team_id",
  "t"."team_no",
  "t"."name" as "team_name",
  "t"."school_name",
  "t"."group_name",
  "o"."user_id",
  "u"."username",
  "o"."amount",
  "o"."pay_status",
  "o"."pay_method",
  "o"."trade_no",
  "o"."payer_org",
  "o"."voucher",
  "o"."paid_at",
  "o"."closed_at",
  "o"."refunded_at",
  "o"."refund_reason",
  "o"."refund_flag",
  "c"."invoice_enable",
  "o"."created_at"
from
  "orders" as "o"
  inner join "competitions" as "c" on "c"."id" = "o"."competition_id"
  inner join "teams" as "t" on "t"."id" = "o"."team_id"
  inner join "users" as "u" on "u"."id" = "o"."user_id"
where
  "o"."id" = $1;

-- orders.findOrderByNo(orderNo)
select
  "o"."id",
  "o"."order_no",
  "o"."competition_id",
  "c"."name" as "competition_name",
  "c"."org_id",
  "o"."team_id",
  "t"."team_no",
  "t"."name" as "team_name",
  "t"."school_name",
  "t"."group_name",
  "o"."user_id",
  "u"."username",
  "o"."amount",
  "o"."pay_status",
  "o"."pay_method",
  "o"."trade_no",
  "o"."payer_org",
  "o"."voucher",
  "o"."paid_at",
  "o"."closed_at",
  "o"."refunded_at",
  "o"."refund_reason",
  "o"."refund_flag",
  "c"."invoice_enable",
  "o"."created_at"
from
  "orders" as "o"
  inner join "competitions" as "c" on "c"."id" = "o"."competition_id"
  inner join "teams" as "t" on "t"."id" = "o"."team_id"
  inner join "users" as "u" on "u"."id" = "o"."user_id"
where
  "o"."order_no" = $1;

-- orders.findOrders(ids, scope)
select
  "o"."id",
  "o"."order_no",
  "o"."competition_id",
  "c"."name" as "competition_name",
  "c"."org_id",
  "o"."team_id",
  "t"."team_no",
  "t"."name" as "team_name",
  "t"."school_name",
  "t"."group_name",
  "o"."user_id",
  "u"."username",
  "o"."amount",
  "o"."pay_status",
  "o"."pay_method",
  "o"."trade_no",
  "o"."payer_org",
  "o"."voucher",
  "o"."paid_at",
  "o"."closed_at",
  "o"."refunded_at",
  "o"."refund_reason",
  "o"."refund_flag",
  "c"."invoice_enable",
  "o"."created_at"
from
  "orders" as "o"
  inner join "competitions" as "c" on "c"."id" = "o"."competition_id"
  inner join "teams" as "t" on "t"."id" = "o"."team_id"
  inner join "users" as "u" on "u"."id" = "o"."user_id"
where
  "o"."id" in ($1)
  and "c"."org_id" = $2;

-- orders.flagRefund(id, tradeNo, now)
update "orders"
set
  "refund_flag" = $1,
  "trade_no" = $2,
  "updated_at" = $3
where
  "id" = $4;

-- orders.insertOrder(v)
insert into
  "orders" (
    "order_no",
    "competition_id",
    "team_id",
    "user_id",
    "amount",
    "pay_status",
    "created_at",
    "updated_at"
  )
values
  ($1, $2, $3, $4, $5, $6, $7, $8)
returning
  "id";
-- stops here: no row

-- orders.isTeamMember(teamId, userId)
select
  "user_id"
from
  "team_members"
where
  "team_id" = $1
  and "user_id" = $2;

-- orders.listOrders(q, scope)
select
  count(*) as "total"
from
  "orders" as "o"
where
  "o"."competition_id" in (
    select
      "c"."id"
    from
      "competitions" as "c"
    where
      "c"."org_id" = $1
  )
  and "o"."competition_id" = $2
  and "o"."pay_status" = $3
  and "o"."pay_method" = $4
  and "o"."pay_status" = $5
  and "o"."voucher" is not null
  and "o"."id" in ($6)
  and (
    lower("o"."order_no") like $7 escape '\'
    or exists (
      select
        "teams"."id"
      from
        "teams"
      where
        "teams"."id" = "o"."team_id"
        and (
          lower("teams"."team_no") like $8 escape '\'
          or lower("teams"."name") like $9 escape '\'
        )
    )
    or exists (
      select
        "users"."id"
      from
        "users"
      where
        "users"."id" = "o"."user_id"
        and lower("users"."username") like $10 escape '\'
    )
  );
-- stops here: no row

-- orders.memberTeamWithFee(teamId, userId)
select
  "t"."id",
  "t"."competition_id",
  "c"."fee",
  "c"."reg_end_time"
from
  "teams" as "t"
  inner join "competitions" as "c" on "c"."id" = "t"."competition_id"
  inner join "team_members" as "m" on "m"."team_id" = "t"."id"
  and "m"."user_id" = $1
where
  "t"."id" = $2;

-- orders.ordersWithVoucher(key)
select
  "id"
from
  "orders"
where
  "voucher" = $1;

-- orders.payUnpaid(ids, scope, values)
update "orders"
set
  "id" = $1,
  "created_at" = $2,
  "updated_at" = $3,
  "competition_id" = $4,
  "team_id" = $5,
  "user_id" = $6,
  "amount" = $7,
  "pay_status" = $8,
  "pay_method" = $9,
  "order_no" = $10,
  "trade_no" = $11,
  "payer_org" = $12,
  "voucher" = $13,
  "paid_at" = $14,
  "closed_at" = $15,
  "refunded_at" = $16,
  "refund_reason" = $17,
  "refund_flag" = $18
where
  "id" in ($19)
  and "pay_status" = $20
  and "competition_id" in (
    select
      "id"
    from
      "competitions"
    where
      "org_id" = $21
  )
returning
  "id";

-- orders.pointRegisterAt(teamId, orderId, now)
update "registers"
set
  "order_id" = $1,
  "updated_at" = $2
where
  "team_id" = $3;

-- orders.teamIdByNo(teamNo)
select
  "id"
from
  "teams"
where
  "team_no" = $1;

-- orders.transition(id, from, values)
update "orders"
set
  "id" = $1,
  "created_at" = $2,
  "updated_at" = $3,
  "competition_id" = $4,
  "team_id" = $5,
  "user_id" = $6,
  "amount" = $7,
  "pay_status" = $8,
  "pay_method" = $9,
  "order_no" = $10,
  "trade_no" = $11,
  "payer_org" = $12,
  "voucher" = $13,
  "paid_at" = $14,
  "closed_at" = $15,
  "refunded_at" = $16,
  "refund_reason" = $17,
  "refund_flag" = $18
where
  "id" = $19
  and "pay_status" = $20;
