-- The SQL of server/src/modules/payments/repo.ts on postgres (server/test/sql-snapshots.test.ts writes this file).

-- payments.enabledConfigs()
select
  *
from
  "payment_configs"
where
  "enable" = $1
order by
  "method";

-- payments.findConfig(method)
select
  *
from
  "payment_configs"
where
  "method" = $1;

-- payments.insertNotification(v)
insert into
  "payment_notifications" (
    "channel",
    "order_no",
    "trade_no",
    "amount",
    "outcome",
    "body",
    "ip",
    "created_at"
  )
values
  ($1, $2, $3, $4, $5, $6, $7, $8);

-- payments.saveConfig(method, values)
insert into
  "payment_configs" ("method", "enable", "settings_json", "updated_at")
values
  ($1, $2, $3, $4)
on conflict ("method") do update
set
  "enable" = $5,
  "settings_json" = $6,
  "updated_at" = $7;
