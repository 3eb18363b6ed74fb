-- The SQL of server/src/modules/invoices/repo.ts on postgres (server/test/sql-snapshots.test.ts writes this file).

-- invoices.decide(id, values)
update "invoices"
set
  "status" = $1,
  "invoice_no" = $2,
  "file_key" = $3,
  "reason" = $4,
  "issued_at" = $5,
  "updated_at" = $6
where
  "id" = $7
  and "status" = $8;

-- invoices.deleteOwnTitle(id, userId)
delete from "invoice_titles"
where
  "id" = $1
  and "user_id" = $2;

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
  "c"."org_id" = $1
  and "i"."competition_id" = $2
  and "i"."status" = $3
  and "i"."id" in ($4)
  and (
    lower("o"."order_no") like $5 escape '\'
    or lower("so"."order_no") like $6 escape '\'
    or lower("i"."title_json") like $7 escape '\'
    or lower("u"."username") like $8 escape '\'
    or lower("i"."invoice_no") like $9 escape '\'
  )
order by
  "i"."id" desc
limit
  $10;

-- invoices.findConfig()
select
  *
from
  "invoice_config"
where
  "id" = $1;

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
  "i"."id" = $1;

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
  "i"."id" in ($1)
  and "c"."org_id" = $2;

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
  "id" = $1
  and "user_id" = $2;

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
    $16
  )
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
  ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
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
  "i"."file_key" = $1;

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
  "c"."org_id" = $1
  and "i"."competition_id" = $2
  and "i"."status" = $3
  and "i"."id" in ($4)
  and (
    lower("o"."order_no") like $5 escape '\'
    or lower("so"."order_no") like $6 escape '\'
    or lower("i"."title_json") like $7 escape '\'
    or lower("u"."username") like $8 escape '\'
    or lower("i"."invoice_no") like $9 escape '\'
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
  "user_id" = $1
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
  ($1, $2, $3, $4, $5, $6, $7, $8, $9)
on conflict ("id") do update
set
  "updated_at" = $10,
  "enable" = $11,
  "issuer_name" = $12,
  "issuer_tax_no" = $13,
  "allowed_types" = $14,
  "apply_start" = $15,
  "apply_end" = $16,
  "notice" = $17;

-- invoices.updateOwnTitle(id, userId, v)
update "invoice_titles"
set
  "id" = $1,
  "name" = $2,
  "created_at" = $3,
  "updated_at" = $4,
  "user_id" = $5,
  "kind" = $6,
  "tax_no" = $7,
  "bank" = $8,
  "bank_account" = $9,
  "address" = $10,
  "phone" = $11
where
  "id" = $12
  and "user_id" = $13;
