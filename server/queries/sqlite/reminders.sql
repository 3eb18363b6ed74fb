-- The SQL of server/src/modules/reminders/repo.ts on sqlite (server/test/sql-snapshots.test.ts writes this file).

-- reminders.claimTeams(v)
insert into
  "reminders_sent" (
    "competition_id",
    "kind",
    "deadline",
    "window",
    "team_id",
    "created_at"
  )
values
  (?, ?, ?, ?, ?, ?)
on conflict (
  "competition_id",
  "kind",
  "deadline",
  "window",
  "team_id"
) do nothing
returning
  "team_id";

-- reminders.memberIds(teamIds)
select distinct
  "user_id"
from
  "team_members"
where
  "team_id" in (?);

-- reminders.openCompetitions(now)
select
  "id",
  "name",
  "org_id"
from
  "competitions"
where
  "audit_status" = ?
  and "end_time" > ?;

-- reminders.teamsMissing(competitionId, kind)
select distinct
  "r"."team_id"
from
  "registers" as "r"
where
  "r"."competition_id" = ?
  and "r"."status" = ?
  and not exists (
    select
      "w"."id"
    from
      "works" as "w"
    where
      "w"."team_id" = "r"."team_id"
  );
