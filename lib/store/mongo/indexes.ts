/**
 * Every index the store's queries rely on, by collection. `createIndexes` with the same name and keys
 * is a no-op, so init() sends them all each time; an index of that name with other keys or options
 * makes it fail loudly instead of leaving a query unserved.
 */
import type { Db, IndexDescription } from 'mongodb';
import { BLOB_BUCKET, COLLECTIONS } from './collections.js';

/**
 * The public number (numbers.ts): lookups by it, and what keeps two instances from ever storing the
 * same one. Sparse, so documents an older Tally wrote without one coexist until start-up numbers them.
 */
const NUMBER_UNIQUE: IndexDescription = { name: 'number_unique', key: { number: 1 }, unique: true, sparse: true };

export const INDEXES: Record<string, IndexDescription[]> = {
  [COLLECTIONS.apiKeys]: [{ name: 'keyId_unique', key: { keyId: 1 }, unique: true }],
  [COLLECTIONS.profiles]: [{ name: 'account_created', key: { accountId: 1, createdAt: 1 } }, NUMBER_UNIQUE],
  [COLLECTIONS.imports]: [
    // The stale-import sweep: live statuses, oldest first.
    { name: 'status_created', key: { status: 1, createdAt: 1 } },
    // A profile's imports, when the profile is deleted (and whether one still runs).
    { name: 'profile_status', key: { profileId: 1, status: 1 } },
  ],
  [COLLECTIONS.reports]: [
    // reports.list without tags, and its (createdAt, _id) keyset cursor.
    { name: 'profile_status_created', key: { profileId: 1, status: 1, createdAt: -1, _id: -1 } },
    // reports.list with tags: multikey on the first tag, the others checked on the fetched documents.
    { name: 'profile_tags_created', key: { profileId: 1, tags: 1, createdAt: -1 } },
    // reports.list by branch (the CI context's).
    { name: 'profile_branch_created', key: { profileId: 1, 'ci.branch': 1, createdAt: -1 } },
    NUMBER_UNIQUE,
  ],
  [COLLECTIONS.containers]: [
    { name: 'report_parent_seq', key: { reportId: 1, parentSeq: 1, seq: 1 } },
    { name: 'report_seq_unique', key: { reportId: 1, seq: 1 }, unique: true },
    // History of one title in a profile, newest report first (DESIGN "Storage").
    { name: 'history', key: { profileId: 1, title: 1, reportCreatedAt: -1 } },
  ],
  [COLLECTIONS.users]: [
    // Sign-in looks people up by address, which is unique across Tally.
    { name: 'email_unique', key: { email: 1 }, unique: true },
    { name: 'account_created', key: { accountId: 1, createdAt: 1 } },
  ],
  [COLLECTIONS.sessions]: [
    { name: 'user', key: { userId: 1 } },
    { name: 'expires', key: { expiresAt: 1 } },
  ],
  // The comparison reads the columns of N reports by id; parts in order.
  [COLLECTIONS.historyColumns]: [{ name: 'report_part_unique', key: { reportId: 1, part: 1 }, unique: true }],
  // Notifications: a profile's rules; due deliveries, longest waiting first; a profile's log, newest
  // first; ended deliveries by age (pruning); a delivery's claims, and a profile's, when they go.
  [COLLECTIONS.notificationRules]: [{ name: 'profile_created', key: { profileId: 1, createdAt: 1 } }],
  [COLLECTIONS.notificationDeliveries]: [
    { name: 'status_due', key: { status: 1, nextAttemptAt: 1, _id: 1 } },
    { name: 'profile_created', key: { profileId: 1, createdAt: -1, _id: -1 } },
    { name: 'finished', key: { finishedAt: 1 } },
  ],
  [COLLECTIONS.notificationClaims]: [
    { name: 'delivery', key: { deliveryId: 1 } },
    { name: 'profile', key: { profileId: 1 } },
  ],
  // The sweep deletes the blobs of a dead import; without this it scans every file document.
  [`${BLOB_BUCKET}.files`]: [{ name: 'metadata_importId', key: { 'metadata.importId': 1 } }],
};

export async function ensureIndexes(db: Db): Promise<void> {
  for (const [collection, indexes] of Object.entries(INDEXES)) {
    // One index per command: FerretDB 1.24 drops the connection (a server panic) when a single
    // createIndexes names several indexes that all exist already, i.e. on every init but the first.
    for (const index of indexes) await db.collection(collection).createIndexes([index]);
  }
}
