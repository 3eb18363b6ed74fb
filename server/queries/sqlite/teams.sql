-- The SQL of server/src/modules/teams/repo.ts on sqlite (server/test/sql-snapshots.test.ts writes this file).

-- teams.decideInvitation(id, status, now)
update "team_invitations"
set
  "status" = ?,
  "decided_at" = ?
where
  "id" = ?
  and "status" = ?;

-- teams.dropPlaces(teamId)
update "teams"
set
  "places_held" = ?
where
  "id" = ?
  and "places_held" = ?;

-- teams.enteredUserIds(competitionId, userIds)
select
  "user_id"
from
  "team_members"
where
  "competition_id" = ?
  and "user_id" in (?);

-- teams.findMemberRow(teamId, userId)
select
  *
from
  "team_members"
where
  "team_id" = ?
  and "user_id" = ?;

-- teams.findPendingInvitation(teamId, inviteeId)
select
  *
from
  "team_invitations"
where
  "team_id" = ?
  and "invitee_id" = ?
  and "status" = ?
order by
  "id";

-- teams.findTeam(id)
select
  *
from
  "teams"
where
  "id" = ?;

-- teams.findTeamOfUser(competitionId, userId)
select
  "t".*
from
  "team_members" as "m"
  inner join "teams" as "t" on "t"."id" = "m"."team_id"
where
  "m"."competition_id" = ?
  and "m"."user_id" = ?;

-- teams.findUserByAccount(usernameKey, phone)
select
  "id",
  "username",
  "status"
from
  "users"
where
  "username_key" = ?;
select
  "id",
  "username",
  "status"
from
  "users"
where
  "phone" = ?
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
  (?, ?, ?, ?, ?, ?, ?)
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
  (?, ?, ?, ?, ?, ?, ?, ?);

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
  (?, ?, ?, ?, ?, ?, ?, ?, ?)
returning
  "id";
-- stops here: no row

-- teams.isMember(teamId, userId)
select
  "user_id"
from
  "team_members"
where
  "team_id" = ?
  and "user_id" = ?;

-- teams.lapseInvitations(competitionId, inviteeId, now)
update "team_invitations"
set
  "status" = ?,
  "decided_at" = ?
where
  "competition_id" = ?
  and "invitee_id" = ?
  and "status" = ?;

-- teams.listChoices(teamId)
select
  "tc"."question_id",
  "q"."title",
  "q"."judging"
from
  "team_choices" as "tc"
  inner join "questions" as "q" on "q"."id" = "tc"."question_id"
where
  "tc"."team_id" = ?;

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
  "m"."team_id" in (?)
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
  "i"."invitee_id" = ?
  and "i"."status" = ?
  and "i"."competition_id" = ?
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
  "team_id" = ?
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
  "i"."team_id" = ?
  and "i"."status" = ?
order by
  "i"."id" desc;

-- teams.lockTeam(teamId, now)
update "teams"
set
  "updated_at" = ?
where
  "id" = ?;

-- teams.questionState(questionId)
select
  "competition_id",
  "reviewed"
from
  "questions"
where
  "id" = ?;

-- teams.refuseInvitations(teamId, inviteeId, now)
update "team_invitations"
set
  "status" = ?,
  "decided_at" = ?
where
  "team_id" = ?
  and "invitee_id" = ?
  and "status" = ?;

-- teams.releaseQuota(competitionId, kind, key)
update "eligibility_quota"
set
  "used" = "used" - ?
where
  "competition_id" = ?
  and "kind" = ?
  and "key" = ?
  and "used" > ?;

-- teams.removeMember(teamId, userId, now)
delete from "team_members"
where
  "team_id" = ?
  and "user_id" = ?
  and "leader" = ?;

-- teams.renameTeam(teamId, name, now)
update "teams"
set
  "name" = ?,
  "updated_at" = ?
where
  "id" = ?;

-- teams.replaceTeachers(teamId, list)
delete from "team_teachers"
where
  "team_id" = ?;
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
  (?, ?, ?, ?, ?, ?);

-- teams.saveChoice(teamId, values)
insert into
  "team_choices" (
    "team_id",
    "question_id",
    "chosen_by",
    "chosen_at"
  )
values
  (?, ?, ?, ?)
on conflict ("team_id") do update
set
  "question_id" = ?,
  "chosen_by" = ?,
  "chosen_at" = ?;

-- teams.schoolCoordinatorIds(schoolId, c)
select distinct
  "user_id"
from
  "school_coordinators"
where
  "school_id" = ?
  and "scope_key" in (?, ?, ?);

-- teams.setAttachments(registerId, attachmentsJson, now)
update "registers"
set
  "attachments_json" = ?,
  "updated_at" = ?
where
  "id" = ?;

-- teams.setLeader(teamId, userId, now)
update "team_members"
set
  "leader" = ?
where
  "team_id" = ?;
update "team_members"
set
  "leader" = ?
where
  "team_id" = ?
  and "user_id" = ?;
update "teams"
set
  "leader_id" = ?,
  "updated_at" = ?
where
  "id" = ?;

-- teams.setMemberCount(teamId, memberCount)
update "teams"
set
  "member_count" = ?
where
  "id" = ?;

-- teams.setTeamEligibility(teamId, v)
update "teams"
set
  "school_key" = ?,
  "school_name" = ?,
  "group_name" = ?
where
  "id" = ?;

-- teams.setTeamNo(teamId, teamNo)
update "teams"
set
  "team_no" = ?
where
  "id" = ?;

-- teams.takePlaces(teamId)
update "teams"
set
  "places_held" = ?
where
  "id" = ?
  and "places_held" = ?;

-- teams.takeQuota(competitionId, kind, key, max)
insert into
  "eligibility_quota" ("competition_id", "kind", "key", "used")
values
  (?, ?, ?, ?)
on conflict ("competition_id", "kind", "key") do nothing;
update "eligibility_quota"
set
  "used" = "used" + ?
where
  "competition_id" = ?
  and "kind" = ?
  and "key" = ?
  and "used" < ?;

-- teams.takeSeat(teamId, maxMembers, now)
update "teams"
set
  "member_count" = "member_count" + ?,
  "updated_at" = ?
where
  "id" = ?
  and "member_count" < ?
  and "individual" = ?;

-- teams.teamNameTaken(competitionId, name)
select
  "id"
from
  "teams"
where
  "competition_id" = ?
  and "name" = ?;

-- teams.updateMemberInfo(teamId, userId, v)
update "team_members"
set
  "info_json" = ?,
  "id_card_enc" = ?,
  "id_card_mask" = ?
where
  "team_id" = ?
  and "user_id" = ?;

-- teams.userKeys(userId)
select
  "username_key",
  "phone"
from
  "users"
where
  "id" = ?;
-- stops here: no row

-- teams.userNames(userId)
select
  "username",
  "user_name"
from
  "users"
where
  "id" = ?;
-- stops here: no row

-- teams.usersByPhones(phones)
select
  "id",
  "status",
  "verified_phone"
from
  "users"
where
  "verified_phone" in (?);
