-- The SQL of server/src/modules/auth/repo.ts on postgres (server/test/sql-snapshots.test.ts writes this file).

-- auth.countLiveSessions(now, scope)
select
  count(*) as "n"
from
  "sessions"
where
  "expires_at" > $1
  and "user_id" in (
    select
      "id"
    from
      "users"
    where
      "org_id" = $2
  );
-- stops here: no row

-- auth.deleteExpiredSessions(now)
delete from "sessions"
where
  "expires_at" <= $1;

-- auth.deleteOtherSessions(userId, keepId)
delete from "sessions"
where
  "user_id" = $1
  and "id" != $2;

-- auth.deleteSession(id)
delete from "sessions"
where
  "id" = $1;

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
  "sessions"."id" = $1
  and "sessions"."expires_at" > $2
  and "users"."status" = $3;

-- auth.findOidcUser(issuer, subject)
select
  "id",
  "status"
from
  "users"
where
  "oidc_issuer" = $1
  and "oidc_subject" = $2;

-- auth.findUserForLogin(usernameKey)
select
  "id",
  "username",
  "password_hash",
  "status"
from
  "users"
where
  "username_key" = $1;

-- auth.findUserPassword(userId)
select
  "id",
  "password_hash"
from
  "users"
where
  "id" = $1;

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
  ($1, $2, $3, $4, $5, $6, $7, $8, $9);

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
  "user_id" = $1
  and "expires_at" > $2
order by
  "last_seen_at" desc;

-- auth.permissionCodes(userId)
select distinct
  "role_permissions"."code"
from
  "user_roles"
  inner join "role_permissions" on "role_permissions"."role_id" = "user_roles"."role_id"
where
  "user_roles"."user_id" = $1;

-- auth.saveOidcState(v, expiredBefore)
delete from "oidc_states"
where
  "created_at" < $1;
insert into
  "oidc_states" (
    "state",
    "nonce",
    "code_verifier",
    "return_to",
    "created_at"
  )
values
  ($1, $2, $3, $4, $5);

-- auth.setLastLogin(userId, now)
update "users"
set
  "last_login_at" = $1
where
  "id" = $2;

-- auth.takeOidcState(state)
delete from "oidc_states"
where
  "state" = $1
returning
  *;

-- auth.touchSession(id, lastSeenAt, expiresAt)
update "sessions"
set
  "last_seen_at" = $1,
  "expires_at" = $2
where
  "id" = $3;
