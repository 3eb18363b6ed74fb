-- The SQL of server/src/modules/sms/repo.ts on postgres (server/test/sql-snapshots.test.ts writes this file).

-- sms.findSettings()
select
  *
from
  "sms_settings"
where
  "id" = $1;

-- sms.insertSimulated(v)
insert into
  "sms_simulator_messages" (
    "provider",
    "phone",
    "sign_name",
    "template",
    "params_json",
    "provider_message_id",
    "created_at"
  )
values
  ($1, $2, $3, $4, $5, $6, $7);

-- sms.latestSimulated(limit)
select
  *
from
  "sms_simulator_messages"
order by
  "id" desc
limit
  $1;

-- sms.saveSettings(v)
insert into
  "sms_settings" (
    "id",
    "provider",
    "enable",
    "settings_json",
    "updated_at"
  )
values
  ($1, $2, $3, $4, $5)
on conflict ("id") do update
set
  "provider" = $6,
  "enable" = $7,
  "settings_json" = $8,
  "updated_at" = $9;
