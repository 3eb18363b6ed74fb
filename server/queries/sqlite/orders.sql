-- The SQL of server/src/modules/orders/repo.ts on sqlite (server/test/sql-snapshots.test.ts writes this file).

-- orders.closeExpired(createdBefore, now)
update "orders"
set
  "pay_status" = ?,
  "closed_at" = ?,
  "updated_at" = ?
where
  "pay_status" = ?
  and "created_at" < ?
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
  "o"."id" in (?)
  and "c"."org_id" = ?;
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
  "o"."team_id" = ?
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
      "c"."org_id" = ?
  )
  and "o"."competition_id" = ?
  and "o"."pay_status" = ?
  and "o"."pay_method" = ?
  and "o"."pay_status" = ?
  and "o"."voucher" is not null
  and "o"."id" in (?)
  and (
    lower("o"."order_no") like ? escape '\'
    or exists (
      select
        "teams"."id"
      from
        "teams"
      where
        "teams"."id" = "o"."team_id"
        and (
          lower("teams"."team_no") like ? escape '\'
          or lower("teams"."name") like ? escape '\'
        )
    )
    or exists (
      select
        "users"."id"
      from
        "users"
      where
        "users"."id" = "o"."user_id"
        and lower("users"."username") like ? escape '\'
    )
  )
order by
  "o"."id" desc
limit
  ?;

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
  "o"."id" = ?;

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
  "o"."order_no" = ?;

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
  "o"."id" in (?)
  and "c"."org_id" = ?;

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
      and "i"."status" <> ?
    limit
      ?
  ) as "invoice_status"
from
  "school_orders" as "so"
  inner join "competitions" as "c" on "c"."id" = "so"."competition_id"
  inner join "schools" as "s" on "s"."id" = "so"."school_id"
  inner join "users" as "u" on "u"."id" = "so"."user_id"
where
  "so"."id" = ?;

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
      and "i"."status" <> ?
    limit
      ?
  ) as "invoice_status"
from
  "school_orders" as "so"
  inner join "competitions" as "c" on "c"."id" = "so"."competition_id"
  inner join "schools" as "s" on "s"."id" = "so"."school_id"
  inner join "users" as "u" on "u"."id" = "so"."user_id"
where
  "so"."order_no" = ?;

-- orders.flagRefund(id, tradeNo, now)
update "orders"
set
  "refund_flag" = ?,
  "trade_no" = ?,
  "updated_at" = ?
where
  "id" = ?;

-- orders.flagSchoolRefund(id, tradeNo, now)
update "school_orders"
set
  "refund_flag" = ?,
  "trade_no" = ?,
  "updated_at" = ?
where
  "id" = ?;

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
  (?, ?, ?, ?, ?, ?, ?, ?)
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
    ?,
    ?,
    ?,
    ?,
    ?,
    ?,
    ?,
    ?,
    ?,
    ?,
    ?,
    ?,
    ?,
    ?,
    ?,
    ?,
    ?,
    ?
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
  "team_id" = ?
  and "user_id" = ?;

-- orders.linkToSchoolOrder(schoolOrderId, orderIds, now)
update "orders"
set
  "school_order_id" = ?,
  "updated_at" = ?
where
  "id" in (?)
  and "pay_status" = ?
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
      "c"."org_id" = ?
  )
  and "o"."competition_id" = ?
  and "o"."pay_status" = ?
  and "o"."pay_method" = ?
  and "o"."pay_status" = ?
  and "o"."voucher" is not null
  and "o"."id" in (?)
  and (
    lower("o"."order_no") like ? escape '\'
    or exists (
      select
        "teams"."id"
      from
        "teams"
      where
        "teams"."id" = "o"."team_id"
        and (
          lower("teams"."team_no") like ? escape '\'
          or lower("teams"."name") like ? escape '\'
        )
    )
    or exists (
      select
        "users"."id"
      from
        "users"
      where
        "users"."id" = "o"."user_id"
        and lower("users"."username") like ? escape '\'
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
  "c"."org_id" = ?
  and "so"."competition_id" = ?
  and "so"."pay_status" = ?
  and (
    lower("so"."order_no") like ? escape '\'
    or lower("s"."name") like ? escape '\'
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
  and "m"."user_id" = ?
where
  "t"."id" = ?;

-- orders.ordersWithVoucher(key)
select
  "id"
from
  "orders"
where
  "voucher" = ?;

-- orders.paySchoolTeams(schoolOrderId, values)
update "orders"
set
  "id" = ?,
  "created_at" = ?,
  "updated_at" = ?,
  "competition_id" = ?,
  "team_id" = ?,
  "user_id" = ?,
  "school_order_id" = ?,
  "amount" = ?,
  "pay_status" = ?,
  "pay_method" = ?,
  "order_no" = ?,
  "trade_no" = ?,
  "payer_org" = ?,
  "voucher" = ?,
  "paid_at" = ?,
  "closed_at" = ?,
  "refunded_at" = ?,
  "refund_reason" = ?,
  "refund_flag" = ?
where
  "school_order_id" = ?
  and "pay_status" = ?
returning
  "id";

-- orders.payUnpaid(ids, scope, values)
update "orders"
set
  "id" = ?,
  "created_at" = ?,
  "updated_at" = ?,
  "competition_id" = ?,
  "team_id" = ?,
  "user_id" = ?,
  "school_order_id" = ?,
  "amount" = ?,
  "pay_status" = ?,
  "pay_method" = ?,
  "order_no" = ?,
  "trade_no" = ?,
  "payer_org" = ?,
  "voucher" = ?,
  "paid_at" = ?,
  "closed_at" = ?,
  "refunded_at" = ?,
  "refund_reason" = ?,
  "refund_flag" = ?
where
  "id" in (?)
  and "pay_status" = ?
  and "school_order_id" is null
  and "competition_id" in (
    select
      "id"
    from
      "competitions"
    where
      "org_id" = ?
  )
returning
  "id";

-- orders.pointRegisterAt(teamId, orderId, now)
update "registers"
set
  "order_id" = ?,
  "updated_at" = ?
where
  "team_id" = ?;

-- orders.refundSchoolTeams(schoolOrderId, values)
update "orders"
set
  "id" = ?,
  "created_at" = ?,
  "updated_at" = ?,
  "competition_id" = ?,
  "team_id" = ?,
  "user_id" = ?,
  "school_order_id" = ?,
  "amount" = ?,
  "pay_status" = ?,
  "pay_method" = ?,
  "order_no" = ?,
  "trade_no" = ?,
  "payer_org" = ?,
  "voucher" = ?,
  "paid_at" = ?,
  "closed_at" = ?,
  "refunded_at" = ?,
  "refund_reason" = ?,
  "refund_flag" = ?
where
  "school_order_id" = ?
  and "pay_status" = ?
returning
  "id";

-- orders.releaseSchoolTeams(schoolOrderId, now)
update "orders"
set
  "school_order_id" = ?,
  "updated_at" = ?
where
  "school_order_id" = ?
  and "pay_status" = ?;

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
      and "i"."status" <> ?
    limit
      ?
  ) as "invoice_status"
from
  "school_orders" as "so"
  inner join "competitions" as "c" on "c"."id" = "so"."competition_id"
  inner join "schools" as "s" on "s"."id" = "so"."school_id"
  inner join "users" as "u" on "u"."id" = "so"."user_id"
where
  "so"."competition_id" = ?
  and "so"."school_id" = ?
order by
  "so"."id" desc;

-- orders.schoolOrdersWithVoucher(key)
select
  "c"."org_id"
from
  "school_orders" as "so"
  inner join "competitions" as "c" on "c"."id" = "so"."competition_id"
where
  "so"."voucher" = ?;

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
  "o"."competition_id" = ?
  and "t"."school_key" = ?
  and "o"."team_id" in (?)
  and "o"."pay_status" = ?
  and "o"."voucher" is null
  and "o"."school_order_id" is null
  and "r"."status" <> ?
  and (
    "r"."school_status" is null
    or "r"."school_status" = ?
  );

-- orders.staleSchoolOrders(createdBefore)
select
  "id",
  "user_id",
  "order_no"
from
  "school_orders"
where
  "pay_status" = ?
  and "voucher" is null
  and "created_at" < ?;

-- orders.teamIdByNo(teamNo)
select
  "id"
from
  "teams"
where
  "team_no" = ?;

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
  "o"."school_order_id" in (?)
order by
  "t"."team_no";

-- orders.transition(id, from, values)
update "orders"
set
  "id" = ?,
  "created_at" = ?,
  "updated_at" = ?,
  "competition_id" = ?,
  "team_id" = ?,
  "user_id" = ?,
  "school_order_id" = ?,
  "amount" = ?,
  "pay_status" = ?,
  "pay_method" = ?,
  "order_no" = ?,
  "trade_no" = ?,
  "payer_org" = ?,
  "voucher" = ?,
  "paid_at" = ?,
  "closed_at" = ?,
  "refunded_at" = ?,
  "refund_reason" = ?,
  "refund_flag" = ?
where
  "id" = ?
  and "pay_status" = ?;

-- orders.transitionSchoolOrder(id, from, values, noVoucher)
update "school_orders"
set
  "id" = ?,
  "created_at" = ?,
  "updated_at" = ?,
  "competition_id" = ?,
  "user_id" = ?,
  "amount" = ?,
  "pay_status" = ?,
  "pay_method" = ?,
  "order_no" = ?,
  "trade_no" = ?,
  "voucher" = ?,
  "paid_at" = ?,
  "closed_at" = ?,
  "refunded_at" = ?,
  "refund_reason" = ?,
  "refund_flag" = ?,
  "school_id" = ?,
  "team_count" = ?
where
  "id" = ?
  and "pay_status" = ?
  and "voucher" is null;
