-- The SQL of server/src/modules/sms/repo.ts on sqlite (server/test/sql-snapshots.test.ts writes this file).

-- sms.findSettings()
select
  *
from
  "sms_settings"
where
  "id" = ?;

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
  (?, ?, ?, ?, ?, ?, ?);

-- sms.latestSimulated(limit)
select
  *
from
  "sms_simulator_messages"
order by
  "id" desc
limit
  ?;

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
  (?, ?, ?, ?, ?)
on conflict ("id") do update
set
  "provider" = ?,
  "enable" = ?,
  "settings_json" = ?,
  "updated_at" = ?;
