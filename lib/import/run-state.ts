/**
 * One run of an import (at request time, or replayed by the queue runner): what its steps share,
 * and the answer it ends with.
 */
import type { ImportRecord, Message, Report } from '../store/types.js';
import type { ImportResponseBody } from './finalize/answer.js';
import type { ImportDeps } from './options.js';
import type { ImportParams } from './receive/params.js';
import type { StoredRequest } from './queue/stored-request.js';
import type { Uploads } from './uploads.js';

export interface Run {
  readonly deps: ImportDeps;
  /** The import record, created first: every run ends it `completed`, `queued` or `failed`. */
  readonly record: ImportRecord;
  report: Report | null;
  readonly params: ImportParams;
  /** Messages of the request itself, before any file (a deprecated route, a raw body, …). */
  readonly early: Message[];
  /** The files being parsed, once the first arrived. */
  uploads: Uploads | null;
  /** process_async: the request being stored for the queue. */
  stored: StoredRequest | null;
  /** The profile's public number, for the answer. */
  readonly profileNumber: number;
  readonly baseUrl: string;
}

export interface ImportAnswer {
  status: number;
  body: ImportResponseBody;
}

/** A run that ended with an error message of its own (an empty import, say): it fails with these messages. */
export class ErrorOutcome extends Error {
  constructor(readonly messages: Message[]) {
    super('import ended with an error message');
  }
}
