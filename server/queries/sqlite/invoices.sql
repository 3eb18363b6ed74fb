-- The SQL of server/src/modules/invoices/repo.ts on sqlite (server/test/sql-snapshots.test.ts writes this file).

-- invoices.decide(id, values)
update "invoices"
set
  "status" = ?,
  "invoice_no" = ?,
  "file_key" = ?,
  "reason" = ?,
  "issued_at" = ?,
  "updated_at" = ?
where
  "id" = ?
  and "status" = ?;

-- invoices.deleteOwnTitle(id, userId)
delete from "invoice_titles"
where
  "id" = ?
  and "user_id" = ?;

-- invoices.exportInvoices(q, scope, size)
select
  "i"."id",
  "i"."order_id",
  "i"."school_order_id",
  "o"."order_no" as "team_order_no",
  "so"."order_no" as "school_order_no",
  "i"."competition_id",
  "c"."name" as "competition_name",
  "c"."org_id",
  "t"."name" as "team_name_of",
  "s"."name" as "school_name",
  "so"."team_count",
  "i"."user_id",
  "u"."username",
  "i"."amount",
  "i"."type",
  "i"."title_json",
  "i"."email",
  "i"."status",
  "i"."invoice_no",
  "i"."file_key",
  "i"."reason",
  "i"."issued_at",
  "i"."created_at"
from
  "invoices" as "i"
  left join "orders" as "o" on "o"."id" = "i"."order_id"
  left join "teams" as "t" on "t"."id" = "o"."team_id"
  left join "school_orders" as "so" on "so"."id" = "i"."school_order_id"
  left join "schools" as "s" on "s"."id" = "so"."school_id"
  inner join "competitions" as "c" on "c"."id" = "i"."competition_id"
  inner join "users" as "u" on "u"."id" = "i"."user_id"
where
  "c"."org_id" = ?
  and "i"."competition_id" = ?
  and "i"."status" = ?
  and "i"."id" in (?)
  and (
    lower("o"."order_no") like ? escape '\'
    or lower("so"."order_no") like ? escape '\'
    or lower("i"."title_json") like ? escape '\'
    or lower("u"."username") like ? escape '\'
    or lower("i"."invoice_no") like ? escape '\'
  )
order by
  "i"."id" desc
limit
  ?;

-- invoices.findConfig()
select
  *
from
  "invoice_config"
where
  "id" = ?;

-- invoices.findInvoice(id)
select
  "i"."id",
  "i"."order_id",
  "i"."school_order_id",
  "o"."order_no" as "team_order_no",
  "so"."order_no" as "school_order_no",
  "i"."competition_id",
  "c"."name" as "competition_name",
  "c"."org_id",
  "t"."name" as "team_name_of",
  "s"."name" as "school_name",
  "so"."team_count",
  "i"."user_id",
  "u"."username",
  "i"."amount",
  "i"."type",
  "i"."title_json",
  "i"."email",
  "i"."status",
  "i"."invoice_no",
  "i"."file_key",
  "i"."reason",
  "i"."issued_at",
  "i"."created_at"
from
  "invoices" as "i"
  left join "orders" as "o" on "o"."id" = "i"."order_id"
  left join "teams" as "t" on "t"."id" = "o"."team_id"
  left join "school_orders" as "so" on "so"."id" = "i"."school_order_id"
  left join "schools" as "s" on "s"."id" = "so"."school_id"
  inner join "competitions" as "c" on "c"."id" = "i"."competition_id"
  inner join "users" as "u" on "u"."id" = "i"."user_id"
where
  "i"."id" = ?;

-- invoices.findInvoices(ids, scope)
select
  "i"."id",
  "i"."order_id",
  "i"."school_order_id",
  "o"."order_no" as "team_order_no",
  "so"."order_no" as "school_order_no",
  "i"."competition_id",
  "c"."name" as "competition_name",
  "c"."org_id",
  "t"."name" as "team_name_of",
  "s"."name" as "school_name",
  "so"."team_count",
  "i"."user_id",
  "u"."username",
  "i"."amount",
  "i"."type",
  "i"."title_json",
  "i"."email",
  "i"."status",
  "i"."invoice_no",
  "i"."file_key",
  "i"."reason",
  "i"."issued_at",
  "i"."created_at"
from
  "invoices" as "i"
  left join "orders" as "o" on "o"."id" = "i"."order_id"
  left join "teams" as "t" on "t"."id" = "o"."team_id"
  left join "school_orders" as "so" on "so"."id" = "i"."school_order_id"
  left join "schools" as "s" on "s"."id" = "so"."school_id"
  inner join "competitions" as "c" on "c"."id" = "i"."competition_id"
  inner join "users" as "u" on "u"."id" = "i"."user_id"
where
  "i"."id" in (?)
  and "c"."org_id" = ?;

-- invoices.findTitle(id, userId)
select
  "id",
  "kind",
  "name",
  "tax_no",
  "bank",
  "bank_account",
  "address",
  "phone",
  "created_at"
from
  "invoice_titles"
where
  "id" = ?
  and "user_id" = ?;

-- invoices.insertInvoice(v)
insert into
  "invoices" (
    "type",
    "created_at",
    "updated_at",
    "competition_id",
    "user_id",
    "status",
    "amount",
    "title_json",
    "id",
    "file_key",
    "reason",
    "order_id",
    "school_order_id",
    "email",
    "invoice_no",
    "issued_at"
  )
values
  (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
returning
  "id";
-- stops here: no row

-- invoices.insertTitle(v)
insert into
  "invoice_titles" (
    "name",
    "created_at",
    "updated_at",
    "user_id",
    "kind",
    "id",
    "tax_no",
    "bank",
    "bank_account",
    "address",
    "phone"
  )
values
  (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
returning
  "id";
-- stops here: no row

-- invoices.invoicesWithFile(key)
select
  "i"."user_id",
  "c"."org_id"
from
  "invoices" as "i"
  inner join "competitions" as "c" on "c"."id" = "i"."competition_id"
where
  "i"."file_key" = ?;

-- invoices.listInvoices(q, scope, max)
select
  count(*) as "total"
from
  "invoices" as "i"
  left join "orders" as "o" on "o"."id" = "i"."order_id"
  left join "teams" as "t" on "t"."id" = "o"."team_id"
  left join "school_orders" as "so" on "so"."id" = "i"."school_order_id"
  left join "schools" as "s" on "s"."id" = "so"."school_id"
  inner join "competitions" as "c" on "c"."id" = "i"."competition_id"
  inner join "users" as "u" on "u"."id" = "i"."user_id"
where
  "c"."org_id" = ?
  and "i"."competition_id" = ?
  and "i"."status" = ?
  and "i"."id" in (?)
  and (
    lower("o"."order_no") like ? escape '\'
    or lower("so"."order_no") like ? escape '\'
    or lower("i"."title_json") like ? escape '\'
    or lower("u"."username") like ? escape '\'
    or lower("i"."invoice_no") like ? escape '\'
  );
-- stops here: no row

-- invoices.listTitles(userId)
select
  "id",
  "kind",
  "name",
  "tax_no",
  "bank",
  "bank_account",
  "address",
  "phone",
  "created_at"
from
  "invoice_titles"
where
  "user_id" = ?
order by
  "id" desc;

-- invoices.saveConfig(values)
insert into
  "invoice_config" (
    "id",
    "updated_at",
    "enable",
    "issuer_name",
    "issuer_tax_no",
    "allowed_types",
    "apply_start",
    "apply_end",
    "notice"
  )
values
  (?, ?, ?, ?, ?, ?, ?, ?, ?)
on conflict ("id") do update
set
  "updated_at" = ?,
  "enable" = ?,
  "issuer_name" = ?,
  "issuer_tax_no" = ?,
  "allowed_types" = ?,
  "apply_start" = ?,
  "apply_end" = ?,
  "notice" = ?;

-- invoices.updateOwnTitle(id, userId, v)
update "invoice_titles"
set
  "id" = ?,
  "name" = ?,
  "created_at" = ?,
  "updated_at" = ?,
  "user_id" = ?,
  "kind" = ?,
  "tax_no" = ?,
  "bank" = ?,
  "bank_account" = ?,
  "address" = ?,
  "phone" = ?
where
  "id" = ?
  and "user_id" = ?;
