/**
 * The Buildbot provider against a real Buildbot (scripts/buildbot.ts), started once for this file:
 * the conformance kit with a started build, a running build's log followed in small chunks to its
 * end, the schedulers, and the faults. The results-code mapping is checked as a table.
 */
import t from 'tap';
import { buildbot, LINE_SLOT, statusOf } from './index.js';
import type { CiCall, CiRun } from '../../lib/ci/api.js';
import { isCiFault, MAX_LOG_CHUNK_BYTES } from '../../lib/ci/api.js';
import { checkProvider } from '../../lib/ci/check.js';
import { assertProvider } from '../../lib/ci/registry.js';
import {
  BUILDER,
  FORCE_SCHEDULER,
  IDLE_BUILDER,
  NIGHTLY_SCHEDULER,
  STEP_LINES,
  SUMMARY_STDERR,
  SUMMARY_STDOUT,
  SUMMARY_STEP,
} from '../../scripts/buildbot.js';
import { freePort } from '../../scripts/mongo-wire.js';
import { buildbotForTest, FIRST_BUILD_TIMEOUT } from '../../test/helpers/ci-servers.js';

t.setTimeout(FIRST_BUILD_TIMEOUT);
/** Small, so lines are cut across chunks; yet read fast enough to catch up with the running build. */
const CHUNK = 64;

t.test('a well-formed provider without the verdict methods', async (t) => {
  t.doesNotThrow(() => assertProvider(buildbot));
  t.equal((buildbot as { setCommitStatus?: unknown }).setCommitStatus, undefined);
  t.equal((buildbot as { upsertComment?: unknown }).upsertComment, undefined);
});

t.test("Buildbot's results codes", async (t) => {
  const ended = (results: number | null) => statusOf({ complete: true, results, started_at: 1 });
  t.strictSame([0, 1, 2, 3, 4, 5, 6, 7, null].map(ended), [
    'passed',
    'passed',
    'failed',
    'cancelled',
    'failed',
    'cancelled',
    'cancelled',
    'unknown',
    'unknown',
  ]);
  t.equal(statusOf({ complete: false, results: null, started_at: 1 }), 'running');
  t.equal(statusOf({ complete: false, results: null, started_at: null }), 'queued');
});

t.test('against a real Buildbot', async (t) => {
  const server = await buildbotForTest(t);
  if (!server) return;
  const password = server.token.split(':')[1]!;
  const call: CiCall = {
    target: { url: server.url, repository: BUILDER, branch: 'main', job: FORCE_SCHEDULER, token: server.token },
    fetch,
  };
  const downUrl = `http://127.0.0.1:${await freePort()}`;

  await t.test('the conformance kit, starting a build', async (t) => {
    const checks = await checkProvider(buildbot, { call, downUrl, start: true, chunkBytes: 64 });
    for (const c of checks) t.ok(c.ok, `${c.name}${c.detail ? `: ${c.detail}` : ''}`);
    t.strictSame(
      checks.map((c) => c.name),
      ['shape', 'startRun', 'listRuns', 'readLog', 'listSchedules', 'bad token', 'unknown job', 'provider down'],
    );
  });

  await t.test("a started build's log, followed in small chunks to its end", async (t) => {
    const before = Math.max(0, ...(await buildbot.listRuns(call, { limit: 5 })).map((r) => r.number ?? 0));
    const run = await buildbot.startRun(call);
    t.match(run.status, /^(queued|running)$/, `the run is under way (${run.status})`);
    t.equal(run.branch, 'main', 'on the branch the force was given');
    let text = '';
    let offset = 0;
    const lineCount = (s: string): number => (s.match(/^line \d+$/gm) ?? []).length;
    // Beside the small-chunk reader, which a loaded machine may keep behind the build until its end,
    // a watcher reads the whole log as a live page would and notes the lines there while it grows.
    const whileRunning = new Set<number>();
    let following = true;
    const watcher = (async () => {
      while (following) {
        const whole = await buildbot.readLog(call, run.id, 0, MAX_LOG_CHUNK_BYTES);
        if (whole.complete) return;
        whileRunning.add(lineCount(whole.text));
        await new Promise((r) => setTimeout(r, 300));
      }
    })();
    const chunks: string[] = [];
    // A stall, not a slow machine, fails the follower: it gives up when no text came for a minute
    // (the log is read 64 bytes a call, each call a login, so a loaded machine reads it slowly).
    let stalledSince = Date.now();
    let problems = 0;
    for (;;) {
      const chunk = await buildbot.readLog(call, run.id, offset, CHUNK);
      if (Buffer.byteLength(chunk.text) > CHUNK || chunk.nextOffset < offset)
        problems += t.fail(`chunk ${JSON.stringify(chunk)} from ${offset}`) ? 0 : 1;
      text += chunk.text;
      chunks.push(chunk.text);
      offset = chunk.nextOffset;
      if (chunk.complete) break;
      if (chunk.text !== '') stalledSince = Date.now();
      if (Date.now() - stalledSince > 60_000 || problems > 3) {
        following = false;
        return t.fail(`the log did not complete: ${JSON.stringify(text)}`);
      }
      // Polled as a live page does: at once while text comes, a moment later when none did.
      if (chunk.text !== '') continue;
      await new Promise((r) => setTimeout(r, 300));
    }
    following = false;
    await watcher;
    t.equal(problems, 0, `no chunk over ${CHUNK} bytes, no offset going back (${chunks.length} chunks)`);
    const lines = text.match(/^line \d+$/gm) ?? [];
    t.strictSame(
      lines,
      Array.from({ length: STEP_LINES }, (_, i) => `line ${i + 1}`),
      'every line once, in order',
    );
    t.ok(
      [...whileRunning].some((n) => n > 0 && n < STEP_LINES),
      `some lines, not all, were read while the build ran (${[...whileRunning].join(', ')} of ${STEP_LINES})`,
    );
    t.notOk(
      chunks.some((c) => c.includes('\uFFFD')),
      'no chunk cuts a character (the headings and the summary hold 2- and 3-byte ones)',
    );
    t.strictSame(
      text.match(/^── .+ ──$/gm),
      ['── print_lines · stdio ──', `── ${SUMMARY_STEP} · stdio ──`],
      "the steps' logs in order, each led by its step's and its own name",
    );
    const all = text.split('\n');
    for (const line of [SUMMARY_STDOUT, SUMMARY_STDERR]) {
      t.equal(
        all.filter((l) => l === line).length,
        1,
        `the second step's line once, its stream letter dropped: ${line}`,
      );
      t.ok(all.indexOf(line) > all.indexOf(`line ${STEP_LINES}`), `${line}: after the first step's lines`);
    }
    // A chunk ending inside a character stops before it; the next one starts on it.
    const heading = text.split('\n').findIndex((l) => l.startsWith('── print_lines'));
    const cut = await buildbot.readLog(call, run.id, heading * LINE_SLOT, 4);
    t.strictSame([cut.text, cut.nextOffset - heading * LINE_SLOT], ['─', 3], 'four bytes hold one 3-byte character');
    const next = await buildbot.readLog(call, run.id, cut.nextOffset, 4);
    t.equal(next.text, '─ ', 'the next chunk starts on the following one');

    const whole = await buildbot.readLog(call, run.id, 0, 256 * 1024);
    t.equal(whole.text, text, 'one large chunk reads the same text');
    t.ok(whole.complete, 'and says it is all');
    const again = await buildbot.readLog(call, run.id, whole.nextOffset, 1024);
    t.strictSame(again, { text: '', nextOffset: whole.nextOffset, complete: true }, 'nothing after the end');

    // Resuming mid-line gives the rest of that line only.
    const lineAt = text.split('\n').findIndex((l) => l === 'line 7');
    const mid = await buildbot.readLog(call, run.id, lineAt * LINE_SLOT + 'line '.length, 1024);
    t.match(mid.text, /^7\nline 8\n/, 'an offset inside a line resumes there');

    const [latest] = await buildbot.listRuns(call, { limit: 1 });
    // A run that was queued (the worker busy with the kit's build) is listed by its build's id now.
    if (run.id.startsWith('request-')) t.ok((latest?.number ?? 0) > before, 'the run listed first is the one started');
    else t.equal(latest?.id, run.id, 'the run listed first is the one started');
    t.equal(latest?.status, 'passed');
    t.ok(
      latest?.durationMs !== null && latest!.durationMs >= (STEP_LINES - 1) * 1000,
      `its duration (${latest?.durationMs} ms) covers the step`,
    );
    t.match(latest?.webUrl, new RegExp(`^${server.url.replace(/\/$/, '')}/#/builders/\\d+/builds/\\d+$`));
  });

  await t.test('runs newest first, up to the limit', async (t) => {
    const runs: CiRun[] = await buildbot.listRuns(call, { limit: 5 });
    t.ok(runs.length >= 2 && runs.length <= 5, `${runs.length} runs`);
    const numbers = runs.map((r) => r.number ?? Infinity);
    t.strictSame(
      numbers,
      [...numbers].sort((a, b) => b - a),
      'newest first',
    );
    t.equal((await buildbot.listRuns(call, { limit: 1 })).length, 1);
  });

  await t.test('the schedules: the nightly scheduler, not the force one, and no made-up cron', async (t) => {
    const schedules = await buildbot.listSchedules(call);
    t.strictSame(
      schedules.map((s) => [s.description, s.cron, s.nextRunAt]),
      [[NIGHTLY_SCHEDULER, null, null]],
    );
  });

  await t.test('faults, without the token in their text', async (t) => {
    const fault = async (name: string, change: Partial<CiCall['target']>, code: string): Promise<void> => {
      const spoilt = { ...call, target: { ...call.target, ...change } };
      try {
        await buildbot.listRuns(spoilt, { limit: 1 });
        t.fail(`${name}: expected ${code}`);
      } catch (e) {
        if (!isCiFault(e)) throw e;
        t.equal(e.code, code, `${name}: ${e.message}`);
        t.notMatch(`${e.message}\n${e.stack}`, password, `${name}: no password in the fault`);
      }
    };
    await fault('a wrong password', { token: `tally:${password}x` }, 'ci_bad_token');
    await fault('no password at all', { token: 'tally' }, 'ci_bad_token');
    await fault('an anonymous call to a master that needs a login', { token: '' }, 'ci_bad_token');
    await fault('an unknown builder', { repository: 'no-such-builder' }, 'ci_unknown_job');
    await fault('an unknown force scheduler', { job: 'no-such-scheduler' }, 'ci_unknown_job');
    await fault('a builder the force scheduler does not build', { repository: IDLE_BUILDER }, 'ci_unknown_job');
    await fault('a scheduler that is not a force scheduler', { job: NIGHTLY_SCHEDULER }, 'ci_unknown_job');
    await fault('a refused port', { url: downUrl }, 'ci_provider_down');
    await t.rejects(buildbot.readLog(call, '999999', 0, 64), { code: 'ci_unknown_job' }, 'an unknown build');
    await t.rejects(buildbot.startRun({ ...call, target: { ...call.target, job: 'nope' } }), {
      code: 'ci_unknown_job',
    });
  });
});
