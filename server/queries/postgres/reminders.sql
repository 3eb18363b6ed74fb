-- The SQL of server/src/modules/reminders/repo.ts on postgres (server/test/sql-snapshots.test.ts writes this file).

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
  ($1, $2, $3, $4, $5, $6)
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
  "team_id" in ($1);

-- reminders.openCompetitions(now)
select
  "id",
  "name",
  "org_id"
from
  "competitions"
where
  "audit_status" = $1
  and "end_time" > $2;

-- reminders.teamsMissing(competitionId, kind)
select distinct
  "r"."team_id"
from
  "registers" as "r"
where
  "r"."competition_id" = $1
  and "r"."status" = $2
  and not exists (
    select
      "w"."id"
    from
      "works" as "w"
    where
      "w"."team_id" = "r"."team_id"
  );
