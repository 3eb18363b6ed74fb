-- The SQL of server/src/modules/users/repo.ts on sqlite (server/test/sql-snapshots.test.ts writes this file).

-- users.bindWechat(v)
insert into
  "user_wechat" (
    "user_id",
    "unionid",
    "openid",
    "nickname",
    "created_at"
  )
values
  (?, ?, ?, ?, ?);

-- users.consumeToken(tokenHash, purpose, now)
update "account_tokens"
set
  "used_at" = ?
where
  "token_hash" = ?
  and "purpose" = ?
  and "used_at" is null
  and "expires_at" > ?
returning
  "user_id",
  "email";

-- users.countUsers(scope)
select
  count(*) as "users",
  sum(
    case
      when "status" = ? then 1
      else 0
    end
  ) as "active_users"
from
  "users"
where
  "org_id" = ?;
-- stops here: no row

-- users.deleteUserSessions(userId)
delete from "sessions"
where
  "user_id" = ?;

-- users.dropStalePhone(userId, phone)
update "users"
set
  "verified_phone" = ?
where
  "id" = ?
  and "verified_phone" is not null
  and "verified_phone" <> ?;

-- users.dropStaleVerification(userId)
update "users"
set
  "verified_email" = ?
where
  "id" = ?
  and "verified_email" is not null
  and (
    "email" is null
    or lower(trim(email)) <> "verified_email"
  );

-- users.findUserBrief(id)
select
  "id",
  "username",
  "status",
  "org_id"
from
  "users"
where
  "id" = ?;

-- users.findUserInfo(id)
select
  "users".*,
  "organisations"."name" as "org_name"
from
  "users"
  left join "organisations" on "organisations"."id" = "users"."org_id"
where
  "users"."id" = ?;

-- users.insertPhoneCode(v)
insert into
  "phone_codes" (
    "phone",
    "purpose",
    "user_id",
    "code_hash",
    "expires_at",
    "created_at"
  )
values
  (?, ?, ?, ?, ?, ?)
returning
  "id";
-- stops here: no row

-- users.insertToken(v)
insert into
  "account_tokens" (
    "user_id",
    "purpose",
    "token_hash",
    "email",
    "expires_at",
    "created_at"
  )
values
  (?, ?, ?, ?, ?, ?);

-- users.insertUser(user, roleCodes, now)
insert into
  "users" (
    "phone",
    "email",
    "username",
    "username_key",
    "password_hash",
    "org_id",
    "user_name",
    "oidc_issuer",
    "oidc_subject",
    "verified_phone",
    "username_skeleton",
    "status",
    "created_at",
    "updated_at"
  )
values
  (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
returning
  "id";
-- stops here: no row

-- users.listUsers(q)
select
  count(*) as "total"
from
  "users"
where
  (
    "users"."username_key" like ? escape '\'
    or lower(coalesce(users.user_name, '')) like ? escape '\'
    or "users"."phone" like ? escape '\'
    or lower(coalesce(users.email, '')) like ? escape '\'
  )
  and "users"."status" = ?
  and "users"."org_id" = ?
  and "users"."id" in (
    select
      "user_roles"."user_id"
    from
      "user_roles"
    where
      "user_roles"."role_id" = ?
  );
-- stops here: no row

-- users.livePhoneCode(phone, purpose, now, userId)
select
  "id",
  "code_hash",
  "tries"
from
  "phone_codes"
where
  "phone" = ?
  and "purpose" = ?
  and "used_at" is null
  and "expires_at" > ?
  and "user_id" = ?
order by
  "id" desc
limit
  ?;

-- users.organisationExists(id)
select
  "id"
from
  "organisations"
where
  "id" = ?;

-- users.otherSignIn(userId)
select
  "password_hash",
  "verified_phone",
  "oidc_subject"
from
  "users"
where
  "id" = ?;

-- users.roleByCode(code)
select
  "id"
from
  "roles"
where
  "code" = ?;

-- users.rolesByIds(ids)
select
  "id",
  "code"
from
  "roles"
where
  "id" in (?);

-- users.setPasswordHash(userId, passwordHash, now)
update "users"
set
  "password_hash" = ?,
  "updated_at" = ?
where
  "id" = ?;

-- users.setPasswordIfNone(userId, passwordHash, now)
update "users"
set
  "password_hash" = ?,
  "updated_at" = ?
where
  "id" = ?
  and "password_hash" is null;

-- users.setUserRoles(userId, roleIds)
delete from "user_roles"
where
  "user_id" = ?;
insert into
  "user_roles" ("user_id", "role_id")
values
  (?, ?);

-- users.setVerifiedEmail(userId, email, now)
update "users"
set
  "verified_email" = ?,
  "updated_at" = ?
where
  "id" = ?;

-- users.setVerifiedPhone(userId, phone, now)
update "users"
set
  "verified_phone" = ?,
  "updated_at" = ?
where
  "id" = ?;

-- users.spendCodeTry(id, maxTries)
update "phone_codes"
set
  "tries" = "tries" + ?
where
  "id" = ?
  and "used_at" is null
  and "tries" < ?
returning
  "tries";

-- users.unbindWechat(userId)
delete from "user_wechat"
where
  "user_id" = ?;

-- users.updateUser(id, values)
update "users"
set
  "id" = ?,
  "created_at" = ?,
  "updated_at" = ?,
  "status" = ?,
  "org_id" = ?,
  "address" = ?,
  "phone" = ?,
  "email" = ?,
  "school_id" = ?,
  "username" = ?,
  "username_key" = ?,
  "username_skeleton" = ?,
  "password_hash" = ?,
  "face_img" = ?,
  "area" = ?,
  "user_name" = ?,
  "birthday" = ?,
  "sex" = ?,
  "education" = ?,
  "admission_date" = ?,
  "at_school" = ?,
  "organization" = ?,
  "department" = ?,
  "speciality" = ?,
  "grade" = ?,
  "student_id_card" = ?,
  "province" = ?,
  "city" = ?,
  "company" = ?,
  "position" = ?,
  "oidc_issuer" = ?,
  "oidc_subject" = ?,
  "last_login_at" = ?,
  "verified_email" = ?,
  "verified_phone" = ?,
  "verified_name" = ?
where
  "id" = ?;

-- users.usePhoneCode(id, now)
update "phone_codes"
set
  "used_at" = ?
where
  "id" = ?
  and "used_at" is null;

-- users.userByUnionid(unionid)
select
  "u"."id",
  "u"."status"
from
  "user_wechat" as "w"
  inner join "users" as "u" on "u"."id" = "w"."user_id"
where
  "w"."unionid" = ?;

-- users.userByVerifiedEmail(email)
select
  "id",
  "status",
  "email"
from
  "users"
where
  "verified_email" = ?;

-- users.userByVerifiedPhone(phone)
select
  "id",
  "status"
from
  "users"
where
  "verified_phone" = ?;

-- users.usernameClash(username, key)
select
  "username_key"
from
  "users"
where
  (
    "username_key" = ?
    or "username_skeleton" = ?
  )
limit
  ?;

-- users.userRoles(userIds)
select
  "user_roles"."user_id",
  "roles"."id",
  "roles"."code",
  "roles"."name"
from
  "user_roles"
  inner join "roles" on "roles"."id" = "user_roles"."role_id"
where
  "user_roles"."user_id" in (?)
order by
  "roles"."id";

-- users.voidPhoneCodes(phone, purpose, now)
update "phone_codes"
set
  "used_at" = ?
where
  "phone" = ?
  and "purpose" = ?
  and "used_at" is null;

-- users.voidTokens(userId, purpose, now)
update "account_tokens"
set
  "used_at" = ?
where
  "user_id" = ?
  and "purpose" = ?
  and "used_at" is null;

-- users.wechatOf(userId)
select
  "nickname",
  "created_at"
from
  "user_wechat"
where
  "user_id" = ?;
