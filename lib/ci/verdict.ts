/**
 * The verdict back: after an import completes, for a profile whose CI link asks for it and a
 * report whose CI context names its commit, a commit status (`tally/<profile>`, passed or failed,
 * the counts, a link to the report) and, when the report came from a pull request, one comment on
 * it per branch, edited in place by later imports.
 *
 * It runs beside the import, never inside it: the import hands over the report and goes on to its
 * answer; nothing here can delay or fail it. Sends of one profile run one after another (so two
 * quick imports of a branch do not both post a first comment), a bounded number wait at once, and a
 * provider that is down or limiting gets one more try. A fault is one log line `ci.verdict_failed`
 * with its code (never the token); a verdict sent is `ci.verdict_sent`.
 */
import { isCiFault, type CiCall, type CiFetch, type CiProvider } from './api.js';
import { callForLink } from './call.js';
import type { CiRegistry } from './registry.js';
import { sendsVerdict } from './registry.js';
import type { SecretBox } from './secret-box.js';
import {
  commentBody,
  commentMarker,
  markerChars,
  MAX_COMMENT_CHARS,
  statusContext,
  statusDescription,
  verdictOf,
} from './verdict-comment.js';
import { verdictFacts } from './verdict-facts.js';
import { reportPageUrl } from '../import/index.js';
import type { Store } from '../store/store.js';

/** Verdicts waiting or being sent at once; past it a verdict is dropped (and logged), never queued without end. */
export const MAX_PENDING_VERDICTS = 64;
/** The wait before the one retry when the provider did not say how long (it is capped at RETRY_MAX_MS). */
const RETRY_MS = 1_000;
const RETRY_MAX_MS = 10_000;

/** What a completed import tells: lib/import calls this through its `onCompleted` (ImportDeps). */
export interface CompletedReport {
  profileId: string;
  reportId: string;
  /** The base URL the import's answer used (the request's, or TALLY_PUBLIC_URL); may be empty. */
  baseUrl: string;
}

export interface VerdictOptions {
  store: Store;
  providers: CiRegistry;
  box: SecretBox | null;
  log(event: string, data: Record<string, unknown>): void;
  /** The base URL report links use when the import's own is not absolute (a queued import). */
  publicBase(): string;
  fetch?: CiFetch;
  retryMs?: number;
}

export interface VerdictSender {
  /** Starts sending the verdict of a completed import, if its link asks for one; returns at once. */
  completed(done: CompletedReport): void;
  /** Resolves when no verdict is waiting or being sent (shutdown and tests wait on it). */
  idle(): Promise<void>;
}

export function verdictSender(o: VerdictOptions): VerdictSender {
  const chains = new Map<string, Promise<void>>();
  let pending = 0;
  return {
    completed(done) {
      if (!o.box) return;
      if (pending >= MAX_PENDING_VERDICTS) {
        o.log('ci.verdict_failed', { code: 'ci_verdict_backlog', report_uuid: done.reportId, pending });
        return;
      }
      pending++;
      const previous = chains.get(done.profileId) ?? Promise.resolve();
      // After the import's own work: the answer is on its way before the first read of the link.
      const next = previous
        .then(() => new Promise((r) => setImmediate(r)))
        .then(() => sendVerdict(o, done))
        .catch((e: unknown) =>
          o.log('ci.verdict_failed', {
            code: 'internal_error',
            report_uuid: done.reportId,
            error: (e as Error).message,
          }),
        )
        .finally(() => {
          pending--;
          if (chains.get(done.profileId) === next) chains.delete(done.profileId);
        });
      chains.set(done.profileId, next);
    },
    async idle() {
      while (chains.size > 0) await Promise.allSettled([...chains.values()]);
    },
  };
}

async function sendVerdict(o: VerdictOptions, done: CompletedReport): Promise<void> {
  const link = await o.store.ciLinks.get(done.profileId);
  if (!link?.verdict) return;
  const report = await o.store.reports.get(done.reportId);
  const commit = report?.ci?.commit;
  if (!report || report.status !== 'completed' || !commit) return;
  const profile = await o.store.profiles.get(done.profileId);
  if (!profile) return;
  const line = { profile_id: profile.number, report_id: report.number, commit };
  let provider: CiProvider;
  let call: CiCall;
  try {
    ({ provider, call } = callForLink(link, { providers: o.providers, box: o.box!, fetch: o.fetch }));
  } catch (e) {
    o.log('ci.verdict_failed', { ...line, step: 'link', code: isCiFault(e) ? e.code : 'internal_error' });
    return;
  }
  // A link saved for a provider that sends no verdict (or no longer does): nothing to send.
  if (!sendsVerdict(provider)) return;
  const base = /^https?:\/\//.test(done.baseUrl) ? done.baseUrl : o.publicBase().replace(/\/+$/, '');
  const reportUrl = (n: number, seq?: number) =>
    seq === undefined ? reportPageUrl(base, n) : `${reportPageUrl(base, n)}/nodes/${seq}`;
  const facts = await verdictFacts(o.store, { profile, report, commit, reportUrl });
  const verdict = verdictOf(report.totals);

  const sent = await step(o, line, 'status', () =>
    provider.setCommitStatus!(call, {
      commit,
      verdict,
      description: statusDescription(report.totals),
      targetUrl: facts.report.url,
      context: statusContext(profile.name),
    }),
  );
  const request = report.ci?.pullRequest ?? null;
  let commented = false;
  if (request !== null) {
    const marker = commentMarker(profile.number, facts.branch);
    commented = await step(o, { ...line, pull_request: request }, 'comment', () =>
      provider.upsertComment!(call, {
        request,
        marker,
        body: commentBody(facts, MAX_COMMENT_CHARS - markerChars(marker)),
      }),
    );
  }
  if (sent || commented)
    o.log('ci.verdict_sent', {
      ...line,
      verdict,
      status: sent,
      ...(request === null ? {} : { pull_request: request, comment: commented }),
      new_failures: facts.newFailures.total,
      fixed: facts.fixed.total,
      flaky: facts.flaky.total,
    });
}

/** One request of the verdict, retried once when the provider was down or limiting; false when it failed. */
async function step(
  o: VerdictOptions,
  line: Record<string, unknown>,
  name: 'status' | 'comment',
  send: () => Promise<void>,
): Promise<boolean> {
  for (let attempt = 1; ; attempt++) {
    try {
      await send();
      return true;
    } catch (e) {
      const code = isCiFault(e) ? e.code : 'internal_error';
      const again = attempt === 1 && (code === 'ci_provider_down' || code === 'ci_rate_limited');
      if (!again) {
        // The fault's sentence names the call, never its headers; other errors say only what they are.
        const detail = isCiFault(e) ? e.message : (e as Error).name;
        o.log('ci.verdict_failed', { ...line, step: name, code, detail, attempts: attempt });
        return false;
      }
      const after = isCiFault(e) && e.retryAfter !== null ? e.retryAfter * 1000 : (o.retryMs ?? RETRY_MS);
      await new Promise((r) => setTimeout(r, Math.min(after, RETRY_MAX_MS)));
    }
  }
}
