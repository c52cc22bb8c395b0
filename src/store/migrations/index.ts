// The migration history, in order. Append only: never edit a migration that has shipped.
import type { Migration } from 'kysely/migration';
import * as foundation from './0001-foundation.ts';
import * as identity from './0002-identity.ts';
import * as oauth from './0003-oauth.ts';
import * as salesData from './0004-sales-data.ts';
import * as documents from './0005-documents.ts';
import * as documentTotals from './0006-document-totals.ts';
import * as passageSearchColumns from './0007-passage-search-columns.ts';
import * as passageRecencyIndex from './0008-passage-recency-index.ts';
import * as passageHeadIndex from './0009-passage-head-index.ts';
import * as passageStatistics from './0010-passage-statistics.ts';
import * as participantStart from './0011-participant-start.ts';
import * as meetingOwnerDealIndex from './0012-meeting-owner-deal-index.ts';
import * as participantMoves from './0013-participant-moves.ts';
import * as probeAndSortIndexes from './0014-probe-and-sort-indexes.ts';
import * as upcomingMeetingsIndex from './0015-upcoming-meetings-index.ts';
import * as meetingTextIndex from './0016-meeting-text-index.ts';
import * as meetingTextOwners from './0017-meeting-text-owners.ts';
import * as participantDeal from './0018-participant-deal.ts';
import * as dealStatusLookup from './0019-deal-status-lookup.ts';
import * as meetingSearchText from './0020-meeting-search-text.ts';
import * as dealSearchIndex from './0021-deal-search-index.ts';
import * as meetingStartOwner from './0022-meeting-start-owner.ts';
import * as listLookupIndexes from './0023-list-lookup-indexes.ts';
import * as tokenExpiryIndexes from './0024-token-expiry-indexes.ts';
import * as jobRuns from './0025-job-runs.ts';
import * as auditEventTimeIndex from './0026-audit-event-time-index.ts';

export const migrations: Record<string, Migration> = {
  '0001-foundation': foundation,
  '0002-identity': identity,
  '0003-oauth': oauth,
  '0004-sales-data': salesData,
  '0005-documents': documents,
  '0006-document-totals': documentTotals,
  '0007-passage-search-columns': passageSearchColumns,
  '0008-passage-recency-index': passageRecencyIndex,
  '0009-passage-head-index': passageHeadIndex,
  '0010-passage-statistics': passageStatistics,
  '0011-participant-start': participantStart,
  '0012-meeting-owner-deal-index': meetingOwnerDealIndex,
  '0013-participant-moves': participantMoves,
  '0014-probe-and-sort-indexes': probeAndSortIndexes,
  '0015-upcoming-meetings-index': upcomingMeetingsIndex,
  '0016-meeting-text-index': meetingTextIndex,
  '0017-meeting-text-owners': meetingTextOwners,
  '0018-participant-deal': participantDeal,
  '0019-deal-status-lookup': dealStatusLookup,
  '0020-meeting-search-text': meetingSearchText,
  '0021-deal-search-index': dealSearchIndex,
  '0022-meeting-start-owner': meetingStartOwner,
  '0023-list-lookup-indexes': listLookupIndexes,
  '0024-token-expiry-indexes': tokenExpiryIndexes,
  '0025-job-runs': jobRuns,
  '0026-audit-event-time-index': auditEventTimeIndex,
};
