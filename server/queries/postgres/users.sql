-- The SQL of server/src/modules/users/repo.ts on postgres (server/test/sql-snapshots.test.ts writes this file).

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
  ($1, $2, $3, $4, $5);

-- users.consumeToken(tokenHash, purpose, now)
update "account_tokens"
set
  "used_at" = $1
where
  "token_hash" = $2
  and "purpose" = $3
  and "used_at" is null
  and "expires_at" > $4
returning
  "user_id",
  "email";

-- users.countUsers(scope)
select
  count(*) as "users",
  sum(
    case
      when "status" = $1 then 1
      else 0
    end
  ) as "active_users"
from
  "users"
where
  "org_id" = $2;
-- stops here: no row

-- users.deleteUserSessions(userId)
delete from "sessions"
where
  "user_id" = $1;

-- users.dropStalePhone(userId, phone)
update "users"
set
  "verified_phone" = $1
where
  "id" = $2
  and "verified_phone" is not null
  and "verified_phone" <> $3;

-- users.dropStaleVerification(userId)
update "users"
set
  "verified_email" = $1
where
  "id" = $2
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
  "id" = $1;

-- users.findUserInfo(id)
select
  "users".*,
  "organisations"."name" as "org_name"
from
  "users"
  left join "organisations" on "organisations"."id" = "users"."org_id"
where
  "users"."id" = $1;

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
  ($1, $2, $3, $4, $5, $6)
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
  ($1, $2, $3, $4, $5, $6);

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
    $14
  )
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
    "users"."username_key" like $1 escape '\'
    or lower(coalesce(users.user_name, '')) like $2 escape '\'
    or "users"."phone" like $3 escape '\'
    or lower(coalesce(users.email, '')) like $4 escape '\'
  )
  and "users"."status" = $5
  and "users"."org_id" = $6
  and "users"."id" in (
    select
      "user_roles"."user_id"
    from
      "user_roles"
    where
      "user_roles"."role_id" = $7
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
  "phone" = $1
  and "purpose" = $2
  and "used_at" is null
  and "expires_at" > $3
  and "user_id" = $4
order by
  "id" desc
limit
  $5;

-- users.organisationExists(id)
select
  "id"
from
  "organisations"
where
  "id" = $1;

-- users.otherSignIn(userId)
select
  "password_hash",
  "verified_phone",
  "oidc_subject"
from
  "users"
where
  "id" = $1;

-- users.roleByCode(code)
select
  "id"
from
  "roles"
where
  "code" = $1;

-- users.rolesByIds(ids)
select
  "id",
  "code"
from
  "roles"
where
  "id" in ($1);

-- users.setPasswordHash(userId, passwordHash, now)
update "users"
set
  "password_hash" = $1,
  "updated_at" = $2
where
  "id" = $3;

-- users.setPasswordIfNone(userId, passwordHash, now)
update "users"
set
  "password_hash" = $1,
  "updated_at" = $2
where
  "id" = $3
  and "password_hash" is null;

-- users.setUserRoles(userId, roleIds)
delete from "user_roles"
where
  "user_id" = $1;
insert into
  "user_roles" ("user_id", "role_id")
values
  ($1, $2);

-- users.setVerifiedEmail(userId, email, now)
update "users"
set
  "verified_email" = $1,
  "updated_at" = $2
where
  "id" = $3;

-- users.setVerifiedPhone(userId, phone, now)
update "users"
set
  "verified_phone" = $1,
  "updated_at" = $2
where
  "id" = $3;

-- users.spendCodeTry(id, maxTries)
update "phone_codes"
set
  "tries" = "tries" + $1
where
  "id" = $2
  and "used_at" is null
  and "tries" < $3
returning
  "tries";

-- users.unbindWechat(userId)
delete from "user_wechat"
where
  "user_id" = $1;

-- users.updateUser(id, values)
update "users"
set
  "id" = $1,
  "created_at" = $2,
  "updated_at" = $3,
  "status" = $4,
  "org_id" = $5,
  "address" = $6,
  "phone" = $7,
  "email" = $8,
  "school_id" = $9,
  "username" = $10,
  "username_key" = $11,
  "username_skeleton" = $12,
  "password_hash" = $13,
  "face_img" = $14,
  "area" = $15,
  "user_name" = $16,
  "birthday" = $17,
  "sex" = $18,
  "education" = $19,
  "admission_date" = $20,
  "at_school" = $21,
  "organization" = $22,
  "department" = $23,
  "speciality" = $24,
  "grade" = $25,
  "student_id_card" = $26,
  "province" = $27,
  "city" = $28,
  "company" = $29,
  "position" = $30,
  "oidc_issuer" = $31,
  "oidc_subject" = $32,
  "last_login_at" = $33,
  "verified_email" = $34,
  "verified_phone" = $35,
  "verified_name" = $36
where
  "id" = $37;

-- users.usePhoneCode(id, now)
update "phone_codes"
set
  "used_at" = $1
where
  "id" = $2
  and "used_at" is null;

-- users.userByUnionid(unionid)
select
  "u"."id",
  "u"."status"
from
  "user_wechat" as "w"
  inner join "users" as "u" on "u"."id" = "w"."user_id"
where
  "w"."unionid" = $1;

-- users.userByVerifiedEmail(email)
select
  "id",
  "status",
  "email"
from
  "users"
where
  "verified_email" = $1;

-- users.userByVerifiedPhone(phone)
select
  "id",
  "status"
from
  "users"
where
  "verified_phone" = $1;

-- users.usernameClash(username, key)
select
  "username_key"
from
  "users"
where
  (
    "username_key" = $1
    or "username_skeleton" = $2
  )
limit
  $3;

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
  "user_roles"."user_id" in ($1)
order by
  "roles"."id";

-- users.voidPhoneCodes(phone, purpose, now)
update "phone_codes"
set
  "used_at" = $1
where
  "phone" = $2
  and "purpose" = $3
  and "used_at" is null;

-- users.voidTokens(userId, purpose, now)
update "account_tokens"
set
  "used_at" = $1
where
  "user_id" = $2
  and "purpose" = $3
  and "used_at" is null;

-- users.wechatOf(userId)
select
  "nickname",
  "created_at"
from
  "user_wechat"
where
  "user_id" = $1;
