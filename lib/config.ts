/**
 * Configuration from the environment, read once at start. Every limit has a finite default and a
 * message code (see README "Limits"); a bad value fails at boot with a precise sentence.
 */
import os from 'node:os';
import path from 'node:path';
import { parseSecretKey, type SecretKey } from './ci/secret-box.js';
import { loadNotifyConfig, type NotifyConfig } from './notify/config.js';

export interface Limits {
  /** Largest request body, counted as bytes arrive (chunked bodies have no Content-Length). */
  maxUploadBytes: number;
  /** Largest single form field value. */
  maxFieldBytes: number;
  maxFields: number;
  /** Parts of a multipart form (files and fields). */
  maxParts: number;
  maxHeaderPairs: number;
  maxZipEntries: number;
  /** Sum of the uncompressed sizes of one zip's entries. */
  maxZipUncompressedBytes: number;
  /** Uncompressed / compressed size of an entry, checked for entries above 1 MiB. */
  maxZipRatio: number;
  /** SPEC 8: files per import without a formatter before `max_files_limit`. */
  maxFilesWithoutFormatter: number;
  /** stdout, stderr and failure text kept per container, in characters. */
  maxTextChars: number;
  /** How long a whole request may take (Node's requestTimeout). */
  requestTimeoutMs: number;
  /** An upload must deliver `minUploadBytes` in every span of this long while Tally waits for it. */
  uploadTimeoutMs: number;
  minUploadBytes: number;
  /** Imports one account may run at once (per Tally process). */
  maxConcurrentImportsPerAccount: number;
  /** Failed API-key attempts from one address per minute before it must wait. */
  maxKeyFailuresPerMinute: number;
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  mongodbUrl: string | null;
  /** Public base of the service, for URLs in answers. */
  publicUrl: string | null;
  limits: Limits;
  /** Extra formatter folders or packages (TALLY_FORMATTERS). */
  formatterModules: readonly string[];
  /** On SIGTERM: how long in-flight requests may go on before their connections are closed. */
  shutdownGraceMs: number;
  /** Worker threads parsing files of built-in formats (TALLY_PARSE_WORKERS); 0 parses on the request thread. */
  parseWorkers: number;
  /** Embedded store: bytes kept back on the disk for cleaning up after a full disk (0: none). */
  storageReserveBytes: number;
  /** TALLY_SECRET_KEY: seals the tokens of CI links; without it no link can be saved or used. */
  secretKey: SecretKey | null;
  /** Notifications: the SMTP server, the webhook addresses allowed, the timeout and retries (lib/notify/config.ts). */
  notify: NotifyConfig;
}

const GiB = 1024 ** 3;
const MiB = 1024 ** 2;

export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze({
  maxUploadBytes: 8 * GiB,
  maxFieldBytes: 64 * 1024,
  maxFields: 1000,
  maxParts: 20_000,
  maxHeaderPairs: 100,
  maxZipEntries: 20_000,
  maxZipUncompressedBytes: 64 * GiB,
  maxZipRatio: 1000,
  maxFilesWithoutFormatter: 1000,
  maxTextChars: 1 * MiB,
  requestTimeoutMs: 60 * 60 * 1000,
  uploadTimeoutMs: 60 * 1000,
  minUploadBytes: 16 * 1024,
  maxConcurrentImportsPerAccount: 32,
  maxKeyFailuresPerMinute: 30,
});

const LIMIT_ENV: Record<keyof Limits, string> = {
  maxUploadBytes: 'TALLY_MAX_UPLOAD_BYTES',
  maxFieldBytes: 'TALLY_MAX_FIELD_BYTES',
  maxFields: 'TALLY_MAX_FIELDS',
  maxParts: 'TALLY_MAX_PARTS',
  maxHeaderPairs: 'TALLY_MAX_HEADER_PAIRS',
  maxZipEntries: 'TALLY_MAX_ZIP_ENTRIES',
  maxZipUncompressedBytes: 'TALLY_MAX_ZIP_UNCOMPRESSED_BYTES',
  maxZipRatio: 'TALLY_MAX_ZIP_RATIO',
  maxFilesWithoutFormatter: 'TALLY_MAX_FILES',
  maxTextChars: 'TALLY_MAX_TEXT_CHARS',
  requestTimeoutMs: 'TALLY_REQUEST_TIMEOUT_MS',
  uploadTimeoutMs: 'TALLY_UPLOAD_TIMEOUT_MS',
  minUploadBytes: 'TALLY_MIN_UPLOAD_BYTES',
  maxConcurrentImportsPerAccount: 'TALLY_MAX_CONCURRENT_IMPORTS',
  maxKeyFailuresPerMinute: 'TALLY_MAX_KEY_FAILURES_PER_MINUTE',
};

function positiveInt(name: string, raw: string): number {
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n <= 0) throw new Error(`${name} must be a positive whole number, got "${raw}"`);
  return n;
}

function nonNegativeInt(name: string, raw: string): number {
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`${name} must be a whole number (0 or more), got "${raw}"`);
  return n;
}

/** The configuration, read once and frozen (its limits too): nothing changes it after start. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Readonly<Config> {
  const limits: Limits = { ...DEFAULT_LIMITS };
  for (const key of Object.keys(LIMIT_ENV) as (keyof Limits)[]) {
    const raw = env[LIMIT_ENV[key]];
    if (raw !== undefined && raw !== '') limits[key] = positiveInt(LIMIT_ENV[key], raw);
  }
  const port = env.PORT ? positiveInt('PORT', env.PORT) : 8080;
  return Object.freeze({
    port,
    host: env.HOST || '0.0.0.0',
    dataDir: path.resolve(env.TALLY_DATA_DIR || './data'),
    mongodbUrl: env.MONGODB_URL || null,
    publicUrl: env.TALLY_PUBLIC_URL || null,
    limits: Object.freeze(limits),
    formatterModules: Object.freeze(
      (env.TALLY_FORMATTERS || '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
    shutdownGraceMs: env.TALLY_SHUTDOWN_GRACE_MS
      ? positiveInt('TALLY_SHUTDOWN_GRACE_MS', env.TALLY_SHUTDOWN_GRACE_MS)
      : 30_000,
    parseWorkers:
      env.TALLY_PARSE_WORKERS !== undefined && env.TALLY_PARSE_WORKERS !== ''
        ? nonNegativeInt('TALLY_PARSE_WORKERS', env.TALLY_PARSE_WORKERS)
        : os.availableParallelism(),
    storageReserveBytes:
      env.TALLY_STORAGE_RESERVE_BYTES === '0'
        ? 0
        : env.TALLY_STORAGE_RESERVE_BYTES
          ? positiveInt('TALLY_STORAGE_RESERVE_BYTES', env.TALLY_STORAGE_RESERVE_BYTES)
          : 64 * MiB,
    secretKey: env.TALLY_SECRET_KEY ? parseSecretKey(env.TALLY_SECRET_KEY) : null,
    notify: loadNotifyConfig(env),
  });
}

export const LIMIT_ENV_NAMES = LIMIT_ENV;
