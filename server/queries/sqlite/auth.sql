-- The SQL of server/src/modules/auth/repo.ts on sqlite (server/test/sql-snapshots.test.ts writes this file).

-- auth.countLiveSessions(now, scope)
select
  count(*) as "n"
from
  "sessions"
where
  "expires_at" > ?
  and "user_id" in (
    select
      "id"
    from
      "users"
    where
      "org_id" = ?
  );
-- stops here: no row

-- auth.deleteExpiredSessions(now)
delete from "sessions"
where
  "expires_at" <= ?;

-- auth.deleteOtherSessions(userId, keepId)
delete from "sessions"
where
  "user_id" = ?
  and "id" != ?;

-- auth.deleteSession(id)
delete from "sessions"
where
  "id" = ?;

-- auth.findLiveSession(id, now)
select
  "sessions"."id",
  "sessions"."user_id",
  "sessions"."kind",
  "sessions"."csrf_token",
  "sessions"."expires_at",
  "sessions"."last_seen_at",
  "users"."username",
  "users"."org_id"
from
  "sessions"
  inner join "users" on "users"."id" = "sessions"."user_id"
where
  "sessions"."id" = ?
  and "sessions"."expires_at" > ?
  and "users"."status" = ?;

-- auth.findOidcUser(issuer, subject)
select
  "id",
  "status"
from
  "users"
where
  "oidc_issuer" = ?
  and "oidc_subject" = ?;

-- auth.findUserForLogin(usernameKey)
select
  "id",
  "username",
  "password_hash",
  "status"
from
  "users"
where
  "username_key" = ?;

-- auth.findUserPassword(userId)
select
  "id",
  "password_hash"
from
  "users"
where
  "id" = ?;

-- auth.insertSession(session)
insert into
  "sessions" (
    "id",
    "user_id",
    "kind",
    "csrf_token",
    "ip",
    "user_agent",
    "created_at",
    "last_seen_at",
    "expires_at"
  )
values
  (?, ?, ?, ?, ?, ?, ?, ?, ?);

-- auth.listUserSessions(userId, now)
select
  "id",
  "kind",
  "ip",
  "user_agent",
  "created_at",
  "last_seen_at",
  "expires_at"
from
  "sessions"
where
  "user_id" = ?
  and "expires_at" > ?
order by
  "last_seen_at" desc;

-- auth.permissionCodes(userId)
select distinct
  "role_permissions"."code"
from
  "user_roles"
  inner join "role_permissions" on "role_permissions"."role_id" = "user_roles"."role_id"
where
  "user_roles"."user_id" = ?;

-- auth.saveOidcState(v, expiredBefore)
delete from "oidc_states"
where
  "created_at" < ?;
insert into
  "oidc_states" (
    "state",
    "nonce",
    "code_verifier",
    "return_to",
    "created_at"
  )
values
  (?, ?, ?, ?, ?);

-- auth.setLastLogin(userId, now)
update "users"
set
  "last_login_at" = ?
where
  "id" = ?;

-- auth.takeOidcState(state)
delete from "oidc_states"
where
  "state" = ?
returning
  *;

-- auth.touchSession(id, lastSeenAt, expiresAt)
update "sessions"
set
  "last_seen_at" = ?,
  "expires_at" = ?
where
  "id" = ?;
