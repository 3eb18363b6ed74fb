-- The SQL of server/src/modules/payments/repo.ts on sqlite (server/test/sql-snapshots.test.ts writes this file).

-- payments.enabledConfigs()
select
  *
from
  "payment_configs"
where
  "enable" = ?
order by
  "method";

-- payments.findConfig(method)
select
  *
from
  "payment_configs"
where
  "method" = ?;

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
  (?, ?, ?, ?, ?, ?, ?, ?);

-- payments.saveConfig(method, values)
insert into
  "payment_configs" ("method", "enable", "settings_json", "updated_at")
values
  (?, ?, ?, ?)
on conflict ("method") do update
set
  "enable" = ?,
  "settings_json" = ?,
  "updated_at" = ?;
