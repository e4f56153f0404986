/** Records every adapter creates the same way: one definition of their starting state. */
import { randomUUID } from 'node:crypto';
import { now } from './time.js';
import type { Account, ImportRecord, NewImport, NewReport, NewUser, Profile, Report, User } from './types.js';

export function newAccount(name: string): Account {
  return { id: randomUUID(), name, createdAt: now() };
}

export function newProfile(accountId: string, name: string, number: number): Profile {
  return { id: randomUUID(), number, accountId, name, createdAt: now() };
}

/** The address is kept lower-cased: it is what people sign in with, whatever case they type. */
export function newUser(input: NewUser): User {
  return { id: randomUUID(), ...input, email: input.email.toLowerCase(), createdAt: now() };
}

/** A new import record: `receiving`, nothing received yet. */
export function newImportRecord(input: NewImport): ImportRecord {
  return {
    id: randomUUID(),
    profileId: input.profileId,
    accountId: input.accountId,
    status: 'receiving',
    createdAt: now(),
    finishedAt: null,
    endpoint: input.endpoint,
    formatter: input.formatter,
    contentType: null,
    params: {},
    tags: [],
    files: [],
    attachments: [],
    messages: [],
    reportId: null,
    progress: { bytes: 0, files: 0, containers: 0 },
  };
}

/** A new report: `building` (invisible to readers), zero totals. */
export function newReportRecord(input: NewReport, number: number): Report {
  return {
    id: randomUUID(),
    number,
    profileId: input.profileId,
    importId: input.importId,
    status: 'building',
    createdAt: now(),
    date: input.date,
    tags: input.tags,
    totals: { containers: 0, tests: 0, passed: 0, failed: 0, errored: 0, skipped: 0, pending: 0, unknown: 0, flaky: 0 },
    files: [],
    messages: [],
    ci: null,
    pinned: false,
  };
}
