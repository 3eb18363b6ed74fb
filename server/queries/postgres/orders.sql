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
  and "school_order_id" is null
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
  "so"."order_no" as "school_order_no",
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
  left join "school_orders" as "so" on "so"."id" = "o"."school_order_id"
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
  "so"."order_no" as "school_order_no",
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
  left join "school_orders" as "so" on "so"."id" = "o"."school_order_id"
where
  "o"."id" = $1;

-- orders.findOrderByNo(orderNo)
select
  "o"."id",
  "o"."order_no",
  "so"."order_no" as "school_order_no",
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
  left join "school_orders" as "so" on "so"."id" = "o"."school_order_id"
where
  "o"."order_no" = $1;

-- orders.findOrders(ids, scope)
select
  "o"."id",
  "o"."order_no",
  "so"."order_no" as "school_order_no",
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
  left join "school_orders" as "so" on "so"."id" = "o"."school_order_id"
where
  "o"."id" in ($1)
  and "c"."org_id" = $2;

-- orders.findSchoolOrder(id)
select
  "so"."id",
  "so"."order_no",
  "so"."competition_id",
  "c"."name" as "competition_name",
  "c"."org_id",
  "so"."school_id",
  "s"."name" as "school_name",
  "so"."user_id",
  "u"."username",
  "so"."amount",
  "so"."team_count",
  "so"."pay_status",
  "so"."pay_method",
  "so"."trade_no",
  "so"."voucher",
  "so"."paid_at",
  "so"."closed_at",
  "so"."refunded_at",
  "so"."refund_reason",
  "so"."refund_flag",
  "c"."invoice_enable",
  "so"."created_at",
  (
    select
      "i"."status"
    from
      "invoices" as "i"
    where
      "i"."school_order_id" = "so"."id"
      and "i"."status" <> $1
    limit
      $2
  ) as "invoice_status"
from
  "school_orders" as "so"
  inner join "competitions" as "c" on "c"."id" = "so"."competition_id"
  inner join "schools" as "s" on "s"."id" = "so"."school_id"
  inner join "users" as "u" on "u"."id" = "so"."user_id"
where
  "so"."id" = $3;

-- orders.findSchoolOrderByNo(orderNo)
select
  "so"."id",
  "so"."order_no",
  "so"."competition_id",
  "c"."name" as "competition_name",
  "c"."org_id",
  "so"."school_id",
  "s"."name" as "school_name",
  "so"."user_id",
  "u"."username",
  "so"."amount",
  "so"."team_count",
  "so"."pay_status",
  "so"."pay_method",
  "so"."trade_no",
  "so"."voucher",
  "so"."paid_at",
  "so"."closed_at",
  "so"."refunded_at",
  "so"."refund_reason",
  "so"."refund_flag",
  "c"."invoice_enable",
  "so"."created_at",
  (
    select
      "i"."status"
    from
      "invoices" as "i"
    where
      "i"."school_order_id" = "so"."id"
      and "i"."status" <> $1
    limit
      $2
  ) as "invoice_status"
from
  "school_orders" as "so"
  inner join "competitions" as "c" on "c"."id" = "so"."competition_id"
  inner join "schools" as "s" on "s"."id" = "so"."school_id"
  inner join "users" as "u" on "u"."id" = "so"."user_id"
where
  "so"."order_no" = $3;

-- orders.flagRefund(id, tradeNo, now)
update "orders"
set
  "refund_flag" = $1,
  "trade_no" = $2,
  "updated_at" = $3
where
  "id" = $4;

-- orders.flagSchoolRefund(id, tradeNo, now)
update "school_orders"
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

-- orders.insertSchoolOrder(v)
insert into
  "school_orders" (
    "created_at",
    "updated_at",
    "competition_id",
    "user_id",
    "amount",
    "order_no",
    "school_id",
    "team_count",
    "id",
    "pay_status",
    "pay_method",
    "trade_no",
    "voucher",
    "paid_at",
    "closed_at",
    "refunded_at",
    "refund_reason",
    "refund_flag"
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
    $17,
    $18
  )
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

-- orders.linkToSchoolOrder(schoolOrderId, orderIds, now)
update "orders"
set
  "school_order_id" = $1,
  "updated_at" = $2
where
  "id" in ($3)
  and "pay_status" = $4
  and "voucher" is null
  and "school_order_id" is null;

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

-- orders.listSchoolOrders(q, scope)
select
  count(*) as "total"
from
  "school_orders" as "so"
  inner join "competitions" as "c" on "c"."id" = "so"."competition_id"
  inner join "schools" as "s" on "s"."id" = "so"."school_id"
  inner join "users" as "u" on "u"."id" = "so"."user_id"
where
  "c"."org_id" = $1
  and "so"."competition_id" = $2
  and "so"."pay_status" = $3
  and (
    lower("so"."order_no") like $4 escape '\'
    or lower("s"."name") like $5 escape '\'
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

-- orders.paySchoolTeams(schoolOrderId, values)
update "orders"
set
  "id" = $1,
  "created_at" = $2,
  "updated_at" = $3,
  "competition_id" = $4,
  "team_id" = $5,
  "user_id" = $6,
  "school_order_id" = $7,
  "amount" = $8,
  "pay_status" = $9,
  "pay_method" = $10,
  "order_no" = $11,
  "trade_no" = $12,
  "payer_org" = $13,
  "voucher" = $14,
  "paid_at" = $15,
  "closed_at" = $16,
  "refunded_at" = $17,
  "refund_reason" = $18,
  "refund_flag" = $19
where
  "school_order_id" = $20
  and "pay_status" = $21
returning
  "id";

-- orders.payUnpaid(ids, scope, values)
update "orders"
set
  "id" = $1,
  "created_at" = $2,
  "updated_at" = $3,
  "competition_id" = $4,
  "team_id" = $5,
  "user_id" = $6,
  "school_order_id" = $7,
  "amount" = $8,
  "pay_status" = $9,
  "pay_method" = $10,
  "order_no" = $11,
  "trade_no" = $12,
  "payer_org" = $13,
  "voucher" = $14,
  "paid_at" = $15,
  "closed_at" = $16,
  "refunded_at" = $17,
  "refund_reason" = $18,
  "refund_flag" = $19
where
  "id" in ($20)
  and "pay_status" = $21
  and "school_order_id" is null
  and "competition_id" in (
    select
      "id"
    from
      "competitions"
    where
      "org_id" = $22
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

-- orders.refundSchoolTeams(schoolOrderId, values)
update "orders"
set
  "id" = $1,
  "created_at" = $2,
  "updated_at" = $3,
  "competition_id" = $4,
  "team_id" = $5,
  "user_id" = $6,
  "school_order_id" = $7,
  "amount" = $8,
  "pay_status" = $9,
  "pay_method" = $10,
  "order_no" = $11,
  "trade_no" = $12,
  "payer_org" = $13,
  "voucher" = $14,
  "paid_at" = $15,
  "closed_at" = $16,
  "refunded_at" = $17,
  "refund_reason" = $18,
  "refund_flag" = $19
where
  "school_order_id" = $20
  and "pay_status" = $21
returning
  "id";

-- orders.releaseSchoolTeams(schoolOrderId, now)
update "orders"
set
  "school_order_id" = $1,
  "updated_at" = $2
where
  "school_order_id" = $3
  and "pay_status" = $4;

-- orders.schoolOrdersOf(competitionId, schoolId)
select
  "so"."id",
  "so"."order_no",
  "so"."competition_id",
  "c"."name" as "competition_name",
  "c"."org_id",
  "so"."school_id",
  "s"."name" as "school_name",
  "so"."user_id",
  "u"."username",
  "so"."amount",
  "so"."team_count",
  "so"."pay_status",
  "so"."pay_method",
  "so"."trade_no",
  "so"."voucher",
  "so"."paid_at",
  "so"."closed_at",
  "so"."refunded_at",
  "so"."refund_reason",
  "so"."refund_flag",
  "c"."invoice_enable",
  "so"."created_at",
  (
    select
      "i"."status"
    from
      "invoices" as "i"
    where
      "i"."school_order_id" = "so"."id"
      and "i"."status" <> $1
    limit
      $2
  ) as "invoice_status"
from
  "school_orders" as "so"
  inner join "competitions" as "c" on "c"."id" = "so"."competition_id"
  inner join "schools" as "s" on "s"."id" = "so"."school_id"
  inner join "users" as "u" on "u"."id" = "so"."user_id"
where
  "so"."competition_id" = $3
  and "so"."school_id" = $4
order by
  "so"."id" desc;

-- orders.schoolOrdersWithVoucher(key)
select
  "c"."org_id"
from
  "school_orders" as "so"
  inner join "competitions" as "c" on "c"."id" = "so"."competition_id"
where
  "so"."voucher" = $1;

-- orders.schoolPayableOrders(competitionId, schoolKey, teamIds)
select
  "o"."id",
  "o"."team_id",
  "o"."amount"
from
  "orders" as "o"
  inner join "teams" as "t" on "t"."id" = "o"."team_id"
  inner join "registers" as "r" on "r"."team_id" = "t"."id"
where
  "o"."competition_id" = $1
  and "t"."school_key" = $2
  and "o"."team_id" in ($3)
  and "o"."pay_status" = $4
  and "o"."voucher" is null
  and "o"."school_order_id" is null
  and "r"."status" <> $5
  and (
    "r"."school_status" is null
    or "r"."school_status" = $6
  );

-- orders.staleSchoolOrders(createdBefore)
select
  "id",
  "user_id",
  "order_no"
from
  "school_orders"
where
  "pay_status" = $1
  and "voucher" is null
  and "created_at" < $2;

-- orders.teamIdByNo(teamNo)
select
  "id"
from
  "teams"
where
  "team_no" = $1;

-- orders.teamsOfSchoolOrders(ids)
select
  "o"."school_order_id",
  "t"."id" as "team_id",
  "t"."team_no",
  "t"."name" as "team_name",
  "o"."order_no",
  "o"."amount",
  "o"."pay_status"
from
  "orders" as "o"
  inner join "teams" as "t" on "t"."id" = "o"."team_id"
where
  "o"."school_order_id" in ($1)
order by
  "t"."team_no";

-- orders.transition(id, from, values)
update "orders"
set
  "id" = $1,
  "created_at" = $2,
  "updated_at" = $3,
  "competition_id" = $4,
  "team_id" = $5,
  "user_id" = $6,
  "school_order_id" = $7,
  "amount" = $8,
  "pay_status" = $9,
  "pay_method" = $10,
  "order_no" = $11,
  "trade_no" = $12,
  "payer_org" = $13,
  "voucher" = $14,
  "paid_at" = $15,
  "closed_at" = $16,
  "refunded_at" = $17,
  "refund_reason" = $18,
  "refund_flag" = $19
where
  "id" = $20
  and "pay_status" = $21;

-- orders.transitionSchoolOrder(id, from, values, noVoucher)
update "school_orders"
set
  "id" = $1,
  "created_at" = $2,
  "updated_at" = $3,
  "competition_id" = $4,
  "user_id" = $5,
  "amount" = $6,
  "pay_status" = $7,
  "pay_method" = $8,
  "order_no" = $9,
  "trade_no" = $10,
  "voucher" = $11,
  "paid_at" = $12,
  "closed_at" = $13,
  "refunded_at" = $14,
  "refund_reason" = $15,
  "refund_flag" = $16,
  "school_id" = $17,
  "team_count" = $18
where
  "id" = $19
  and "pay_status" = $20
  and "voucher" is null;
