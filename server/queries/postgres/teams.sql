-- The SQL of server/src/modules/teams/repo.ts on postgres (server/test/sql-snapshots.test.ts writes this file).

-- teams.decideInvitation(id, status, now)
update "team_invitations"
set
  "status" = $1,
  "decided_at" = $2
where
  "id" = $3
  and "status" = $4;

-- teams.dropPlaces(teamId)
update "teams"
set
  "places_held" = $1
where
  "id" = $2
  and "places_held" = $3;

-- teams.enteredUserIds(competitionId, userIds)
select
  "user_id"
from
  "team_members"
where
  "competition_id" = $1
  and "user_id" in ($2);

-- teams.findMemberRow(teamId, userId)
select
  *
from
  "team_members"
where
  "team_id" = $1
  and "user_id" = $2;

-- teams.findPendingInvitation(teamId, inviteeId)
select
  *
from
  "team_invitations"
where
  "team_id" = $1
  and "invitee_id" = $2
  and "status" = $3
order by
  "id";

-- teams.findTeam(id)
select
  *
from
  "teams"
where
  "id" = $1;

-- teams.findTeamOfUser(competitionId, userId)
select
  "t".*
from
  "team_members" as "m"
  inner join "teams" as "t" on "t"."id" = "m"."team_id"
where
  "m"."competition_id" = $1
  and "m"."user_id" = $2;

-- teams.findUserByAccount(usernameKey, phone)
select
  "id",
  "username",
  "status"
from
  "users"
where
  "username_key" = $1;
select
  "id",
  "username",
  "status"
from
  "users"
where
  "phone" = $1
order by
  "id";

-- teams.insertInvitation(v)
insert into
  "team_invitations" (
    "team_id",
    "competition_id",
    "inviter_id",
    "invitee_id",
    "account",
    "status",
    "created_at"
  )
values
  ($1, $2, $3, $4, $5, $6, $7)
returning
  "id";
-- stops here: no row

-- teams.insertMember(v)
insert into
  "team_members" (
    "created_at",
    "competition_id",
    "team_id",
    "user_id",
    "leader",
    "info_json",
    "id_card_enc",
    "id_card_mask"
  )
values
  ($1, $2, $3, $4, $5, $6, $7, $8);

-- teams.insertTeam(v)
insert into
  "teams" (
    "competition_id",
    "team_no",
    "name",
    "individual",
    "leader_id",
    "member_count",
    "join_code",
    "created_at",
    "updated_at"
  )
values
  ($1, $2, $3, $4, $5, $6, $7, $8, $9)
returning
  "id";
-- stops here: no row

-- teams.isMember(teamId, userId)
select
  "user_id"
from
  "team_members"
where
  "team_id" = $1
  and "user_id" = $2;

-- teams.lapseInvitations(competitionId, inviteeId, now)
update "team_invitations"
set
  "status" = $1,
  "decided_at" = $2
where
  "competition_id" = $3
  and "invitee_id" = $4
  and "status" = $5;

-- teams.listChoices(teamId)
select
  "tc"."question_id",
  "q"."title",
  "q"."judging"
from
  "team_choices" as "tc"
  inner join "questions" as "q" on "q"."id" = "tc"."question_id"
where
  "tc"."team_id" = $1;

-- teams.listMembers(teamIds)
select
  "m"."team_id",
  "m"."user_id",
  "u"."username",
  "m"."leader",
  "m"."info_json",
  "m"."id_card_mask",
  "m"."created_at"
from
  "team_members" as "m"
  inner join "users" as "u" on "u"."id" = "m"."user_id"
where
  "m"."team_id" in ($1)
order by
  "m"."leader" desc,
  "m"."created_at",
  "m"."user_id";

-- teams.listMyInvitations(userId, competitionId)
select
  "i"."id",
  "i"."team_id",
  "t"."name" as "team_name",
  "i"."competition_id",
  "c"."name" as "competition_name",
  "inviter"."username" as "inviter_name",
  "i"."status",
  "i"."created_at",
  "i"."invitee_id",
  "invitee"."username" as "invitee_name"
from
  "team_invitations" as "i"
  inner join "teams" as "t" on "t"."id" = "i"."team_id"
  inner join "competitions" as "c" on "c"."id" = "i"."competition_id"
  inner join "users" as "inviter" on "inviter"."id" = "i"."inviter_id"
  inner join "users" as "invitee" on "invitee"."id" = "i"."invitee_id"
where
  "i"."invitee_id" = $1
  and "i"."status" = $2
  and "i"."competition_id" = $3
order by
  "i"."id" desc;

-- teams.listTeachers(teamId)
select
  "id",
  "name",
  "phone",
  "organization",
  "title"
from
  "team_teachers"
where
  "team_id" = $1
order by
  "sort",
  "id";

-- teams.listTeamInvitations(teamId)
select
  "i"."id",
  "i"."team_id",
  "t"."name" as "team_name",
  "i"."competition_id",
  "c"."name" as "competition_name",
  "inviter"."username" as "inviter_name",
  "i"."status",
  "i"."created_at",
  "i"."account"
from
  "team_invitations" as "i"
  inner join "teams" as "t" on "t"."id" = "i"."team_id"
  inner join "competitions" as "c" on "c"."id" = "i"."competition_id"
  inner join "users" as "inviter" on "inviter"."id" = "i"."inviter_id"
where
  "i"."team_id" = $1
  and "i"."status" = $2
order by
  "i"."id" desc;

-- teams.lockTeam(teamId, now)
update "teams"
set
  "updated_at" = $1
where
  "id" = $2;

-- teams.questionState(questionId)
select
  "competition_id",
  "reviewed"
from
  "questions"
where
  "id" = $1;

-- teams.refuseInvitations(teamId, inviteeId, now)
update "team_invitations"
set
  "status" = $1,
  "decided_at" = $2
where
  "team_id" = $3
  and "invitee_id" = $4
  and "status" = $5;

-- teams.releaseQuota(competitionId, kind, key)
update "eligibility_quota"
set
  "used" = "used" - $1
where
  "competition_id" = $2
  and "kind" = $3
  and "key" = $4
  and "used" > $5;

-- teams.removeMember(teamId, userId, now)
delete from "team_members"
where
  "team_id" = $1
  and "user_id" = $2
  and "leader" = $3;

-- teams.renameTeam(teamId, name, now)
update "teams"
set
  "name" = $1,
  "updated_at" = $2
where
  "id" = $3;

-- teams.replaceTeachers(teamId, list)
delete from "team_teachers"
where
  "team_id" = $1;
insert into
  "team_teachers" (
    "name",
    "title",
    "phone",
    "organization",
    "team_id",
    "sort"
  )
values
  ($1, $2, $3, $4, $5, $6);

-- teams.saveChoice(teamId, values)
insert into
  "team_choices" (
    "team_id",
    "question_id",
    "chosen_by",
    "chosen_at"
  )
values
  ($1, $2, $3, $4)
on conflict ("team_id") do update
set
  "question_id" = $5,
  "chosen_by" = $6,
  "chosen_at" = $7;

-- teams.schoolCoordinatorIds(schoolId, c)
select distinct
  "user_id"
from
  "school_coordinators"
where
  "school_id" = $1
  and "scope_key" in ($2, $3, $4);

-- teams.setAttachments(registerId, attachmentsJson, now)
update "registers"
set
  "attachments_json" = $1,
  "updated_at" = $2
where
  "id" = $3;

-- teams.setLeader(teamId, userId, now)
update "team_members"
set
  "leader" = $1
where
  "team_id" = $2;
update "team_members"
set
  "leader" = $1
where
  "team_id" = $2
  and "user_id" = $3;
update "teams"
set
  "leader_id" = $1,
  "updated_at" = $2
where
  "id" = $3;

-- teams.setMemberCount(teamId, memberCount)
update "teams"
set
  "member_count" = $1
where
  "id" = $2;

-- teams.setTeamEligibility(teamId, v)
update "teams"
set
  "school_key" = $1,
  "school_name" = $2,
  "group_name" = $3
where
  "id" = $4;

-- teams.setTeamNo(teamId, teamNo)
update "teams"
set
  "team_no" = $1
where
  "id" = $2;

-- teams.takePlaces(teamId)
update "teams"
set
  "places_held" = $1
where
  "id" = $2
  and "places_held" = $3;

-- teams.takeQuota(competitionId, kind, key, max)
insert into
  "eligibility_quota" ("competition_id", "kind", "key", "used")
values
  ($1, $2, $3, $4)
on conflict ("competition_id", "kind", "key") do nothing;
update "eligibility_quota"
set
  "used" = "used" + $1
where
  "competition_id" = $2
  and "kind" = $3
  and "key" = $4
  and "used" < $5;

-- teams.takeSeat(teamId, maxMembers, now)
update "teams"
set
  "member_count" = "member_count" + $1,
  "updated_at" = $2
where
  "id" = $3
  and "member_count" < $4
  and "individual" = $5;

-- teams.teamNameTaken(competitionId, name)
select
  "id"
from
  "teams"
where
  "competition_id" = $1
  and "name" = $2;

-- teams.updateMemberInfo(teamId, userId, v)
update "team_members"
set
  "info_json" = $1,
  "id_card_enc" = $2,
  "id_card_mask" = $3
where
  "team_id" = $4
  and "user_id" = $5;

-- teams.userKeys(userId)
select
  "username_key",
  "phone"
from
  "users"
where
  "id" = $1;
-- stops here: no row

-- teams.userNames(userId)
select
  "username",
  "user_name"
from
  "users"
where
  "id" = $1;
-- stops here: no row

-- teams.usersByPhones(phones)
select
  "id",
  "status",
  "verified_phone"
from
  "users"
where
  "verified_phone" in ($1);
