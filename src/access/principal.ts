// Who is asking, as the server decides it: built only from a verified access token and the
// stored user, never from tool arguments. Every tool-data query takes one.
import type { Kysely } from 'kysely';
import type { AuthInfo } from './auth-info.ts';
import type { Database, Role } from '../store/schema.ts';
import { findUser } from '../store/users.ts';
import { findOrganizationRecord, licenseIsActive } from '../store/organizations.ts';
import { managedTeamIds, teamIdsOfUser } from '../store/teams.ts';

export type Principal = {
  userId: string;
  orgId: string;
  email: string;
  name: string;
  role: Role;
  timezone: string;
  /** Teams the user belongs to. */
  teamIds: string[];
  /** Teams the user manages, sub-teams included (empty unless a manager or admin manages some). */
  managedTeamIds: string[];
  /**
   * Members of those teams but the user, resolved once per request so visibility predicates use an
   * indexed `owner_id in (…)`. A manager is usually a member of a team he manages; he is the
   * principal's userId, not one of these, so each owner the policy reads comes once (ownersSeen),
   * and how many there are, which chooses plans, is how many people they are.
   */
  managedMemberIds: string[];
  /** The organization's `restrict_meeting_details_to_participants` setting. */
  restrictMeetingDetails: boolean;
};

/** Why a verified token still gets no data. Each reason has its own message for the 403. */
export type PrincipalRefusal = 'user_not_found' | 'user_disabled' | 'license_expired';

export type PrincipalResult = { ok: true; principal: Principal } | { ok: false; reason: PrincipalRefusal; message: string };

/** Resolves the principal for a verified token: the stored user (active), its org (licensed) and teams. */
export async function principalFromAuth(db: Kysely<Database>, auth: Pick<AuthInfo, 'userId' | 'orgId'>, at: number = Date.now()): Promise<PrincipalResult> {
  const [user, org] = await Promise.all([findUser(db, auth.orgId, auth.userId), findOrganizationRecord(db, auth.orgId)]);
  if (!user || !org) return { ok: false, reason: 'user_not_found', message: 'The account this token was issued to no longer exists. Sign in again.' };
  if (user.status !== 'active') {
    return { ok: false, reason: 'user_disabled', message: `The user ${user.email} is disabled in ${org.name}. Ask an administrator of your organization to re-enable the account.` };
  }
  if (!licenseIsActive(org.license, at)) {
    return {
      ok: false,
      reason: 'license_expired',
      message: `The license of ${org.name} has expired (${org.license.plan === 'trial' ? 'trial ended' : 'plan expired'}). An administrator must renew it before agents can read data.`,
    };
  }
  const [teamIds, allManaged] = await Promise.all([teamIdsOfUser(db, org.id, user.id), managedTeamIds(db, org.id, user.id)]);
  // Only managers and admins act on managed teams; a member flagged as manager by mistake gains nothing.
  const managed = user.role === 'manager' || user.role === 'admin' ? allManaged : [];
  const members = managed.length
    ? await db.selectFrom('team_members').select('user_id').distinct().where('org_id', '=', org.id).where('team_id', 'in', managed).orderBy('user_id').execute()
    : [];
  return {
    ok: true,
    principal: {
      userId: user.id,
      orgId: org.id,
      email: user.email,
      name: user.name,
      role: user.role,
      timezone: user.timezone,
      teamIds,
      managedTeamIds: managed,
      managedMemberIds: members.map((m) => m.user_id).filter((id) => id !== user.id),
      restrictMeetingDetails: org.settings.restrictMeetingDetailsToParticipants,
    },
  };
}

/** The visibility a result echoes back (`scope.visibility`), in words an agent can act on. */
export function visibilityLabel(p: Principal): string {
  switch (p.role) {
    case 'admin':
      return 'all records of the organization';
    case 'manager':
      return 'records you own or attended, and those owned by members of the teams you manage';
    case 'member':
      return 'records you own or attended';
    case 'viewer':
      return 'meetings you attended and the deals linked to them';
  }
}
