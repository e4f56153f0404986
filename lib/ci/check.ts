/**
 * The conformance kit for CI providers: what every provider must satisfy, run against a real
 * server (Gitea, Buildbot, a recorded-answer server for GitLab and Jenkins). It reads what is there,
 * starts a run only when asked, and checks the faults by spoiling the target: a wrong token, a job
 * that does not exist, a port nothing listens on. No check may see the token in a fault's text.
 */
import { isCiFault, MAX_LOG_CHUNK_BYTES, type CiCall, type CiFaultCode, type CiProvider, type CiRun } from './api.js';
import { assertProvider } from './registry.js';

export interface CiCheck {
  name: string;
  ok: boolean;
  detail?: string;
}

export interface CiCheckOptions {
  /** A working call: the target's token is one the server accepts. */
  call: CiCall;
  /** A job name the server does not know. */
  unknownJob?: string;
  /** A base URL nothing listens on (e.g. a closed port on 127.0.0.1). */
  downUrl: string;
  /** Start a run too (it changes the server). */
  start?: boolean;
  /** Log chunk size asked for, small so the paging is exercised. */
  chunkBytes?: number;
}

const STATUSES = new Set(['queued', 'running', 'passed', 'failed', 'cancelled', 'unknown']);

export async function checkProvider(provider: CiProvider, options: CiCheckOptions): Promise<CiCheck[]> {
  const checks: CiCheck[] = [];
  const add = (name: string, ok: boolean, detail?: string): void => {
    checks.push(detail === undefined ? { name, ok } : { name, ok, detail });
  };
  const secret = options.call.target.token;
  const guard = async (name: string, body: () => Promise<void>): Promise<void> => {
    try {
      await body();
    } catch (e) {
      add(name, false, describe(e, secret));
    }
  };

  await guard('shape', async () => {
    assertProvider(provider);
    add('shape', true);
  });

  if (options.start)
    await guard('startRun', async () => {
      const run = await provider.startRun(options.call);
      const bad = runProblem(run);
      add('startRun', bad === null, bad ?? undefined);
    });

  let runs: CiRun[] = [];
  await guard('listRuns', async () => {
    runs = await provider.listRuns(options.call, { limit: 5 });
    const bad = !Array.isArray(runs) ? 'not an array' : runs.length > 5 ? 'more runs than the limit' : null;
    const shapes = Array.isArray(runs) ? runs.map(runProblem).find((p) => p !== null) : null;
    add('listRuns', bad === null && !shapes, bad ?? shapes ?? undefined);
  });

  const first = runs[0];
  if (first) await guard('readLog', () => checkLog(provider, options, first.id, add));

  await guard('listSchedules', async () => {
    const schedules = await provider.listSchedules(options.call);
    const bad = schedules.find(
      (s) => typeof s.id !== 'string' || (s.cron !== null && (typeof s.cron !== 'string' || !s.cron)),
    );
    add('listSchedules', Array.isArray(schedules) && !bad, bad ? `schedule ${JSON.stringify(bad)}` : undefined);
  });

  const spoilt = (change: Partial<CiCall['target']>): CiCall => ({
    ...options.call,
    target: { ...options.call.target, ...change },
  });
  await expectFault(add, 'bad token', 'ci_bad_token', secret, () =>
    provider.listRuns(spoilt({ token: `${secret}-not-it` }), { limit: 1 }),
  );
  await expectFault(add, 'unknown job', 'ci_unknown_job', secret, () =>
    provider.listRuns(spoilt({ job: options.unknownJob ?? 'no-such-job-tally-check' }), { limit: 1 }),
  );
  await expectFault(add, 'provider down', 'ci_provider_down', secret, () =>
    provider.listRuns(spoilt({ url: options.downUrl }), { limit: 1 }),
  );
  return checks;
}

async function checkLog(
  provider: CiProvider,
  options: CiCheckOptions,
  run: string,
  add: (name: string, ok: boolean, detail?: string) => void,
): Promise<void> {
  const size = options.chunkBytes ?? 1024;
  let offset = 0;
  // A finished run's log is read to its end; a running one for a few chunks only.
  for (let i = 0; i < 10_000; i++) {
    const chunk = await provider.readLog(options.call, run, offset, size);
    const bytes = Buffer.byteLength(chunk.text);
    if (bytes > Math.min(size, MAX_LOG_CHUNK_BYTES) || chunk.nextOffset < offset) {
      add('readLog', false, `chunk of ${bytes} bytes from ${offset} to ${chunk.nextOffset} (asked ${size})`);
      return;
    }
    if (chunk.complete || chunk.nextOffset === offset) break;
    offset = chunk.nextOffset;
  }
  const again = await provider.readLog(options.call, run, offset, size);
  add('readLog', again.nextOffset >= offset, again.nextOffset >= offset ? undefined : 'offset went back');
}

async function expectFault(
  add: (name: string, ok: boolean, detail?: string) => void,
  name: string,
  code: CiFaultCode,
  secret: string,
  body: () => Promise<unknown>,
): Promise<void> {
  try {
    await body();
    add(name, false, `expected ${code}, the call succeeded`);
  } catch (e) {
    if (!isCiFault(e)) return add(name, false, `expected ${code}, got ${describe(e, secret)}`);
    if (secret && `${e.message} ${e.stack ?? ''}`.includes(secret))
      return add(name, false, 'the fault text carries the token');
    add(name, e.code === code, e.code === code ? undefined : `expected ${code}, got ${e.code}: ${e.message}`);
  }
}

function runProblem(run: CiRun): string | null {
  if (!run || typeof run.id !== 'string' || !run.id) return `run without an id: ${JSON.stringify(run)}`;
  if (!STATUSES.has(run.status)) return `run ${run.id}: status ${JSON.stringify(run.status)}`;
  if (run.durationMs !== null && !(run.durationMs >= 0)) return `run ${run.id}: duration ${run.durationMs}`;
  return null;
}

/** A failure's text for a check's detail, with the token masked should a provider have leaked it. */
function describe(e: unknown, secret: string): string {
  const text = isCiFault(e) ? `${e.code}: ${e.message}` : e instanceof Error ? e.message : String(e);
  return secret ? text.split(secret).join('[token]') : text;
}
