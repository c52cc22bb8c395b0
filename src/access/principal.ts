// Who is asking, as the server decides it: built only from a verified access token and the
// stored user, never from tool arguments. Every tool-data query takes one.
import type { Role } from '../store/schema.ts';

export type Principal = {
  userId: string;
  orgId: string;
  email: string;
  name: string;
  role: Role;
  /** Teams the user belongs to. */
  teamIds: string[];
  /** Teams the user manages, sub-teams included (empty unless a manager or admin manages some). */
  managedTeamIds: string[];
  /** The organization's `restrict_meeting_details_to_participants` setting. */
  restrictMeetingDetails: boolean;
};
