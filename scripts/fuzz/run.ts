/**
 * Runs every fuzz target for a time budget: the formatters in-process, the front end against a
 * started Tally (embedded store, a temp dir). Shared by the bounded run in the suite
 * (test/fuzz.test.ts) and the long one behind `npm run fuzz` (scripts/fuzz.ts).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtinFormatters } from '../../formatters/index.js';
import type { Harness } from '../../test/helpers/tally.js';
import { file, field, multipart } from '../../test/helpers/multipart.js';
import { junitXml } from '../../test/helpers/junit.js';
import { zipOf } from '../../test/helpers/zip.js';
import type { Logger } from '../../lib/log.js';
import { Coverage } from './coverage.js';
import { fuzz, type RunStats, type Target } from './engine.js';
import { formatterTarget, frontEndTarget, FUZZ_BOUNDARY } from './targets.js';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Tally's code and the parsers it drives count; the fuzzer, the tests and the test runner do not. */
export const coverageOf = (url: string): boolean =>
  url.includes(root) && !/\/node_modules\/(tap|@tapjs|tsx|esbuild|typescript)\/|\/scripts\/fuzz\/|\/test\//.test(url);

export function formatterTargets(only?: string): Target[] {
  return builtinFormatters
    .filter((f) => !only || f.key === only)
    .map((f) => formatterTarget(f, builtinFormatters, path.join(root, 'formatters', f.key, 'fixtures')));
}

export async function frontEndSeeds(): Promise<Buffer[]> {
  const form = (parts: Parameters<typeof multipart>[0]) => multipart(parts, FUZZ_BOUNDARY).body;
  const zip = await zipOf([
    { name: 'reports/TEST-a.xml', data: junitXml({ suite: 'a' }) },
    { name: 'reports/TEST-b.xml', data: junitXml({ suite: 'b', cases: [{ name: 'x', status: 'skipped' }] }) },
    { name: '__MACOSX/._TEST-a.xml', data: 'x' },
    { name: 'shot.png', data: Buffer.from([0x89, 0x50, 0x4e, 0x47]), compress: false },
  ]);
  return [
    form([file('file[]', 'TEST-a.xml', junitXml())]),
    form([
      field('tag[]', 'branch:main'),
      file('file[]', 'results.zip', zip, 'application/zip'),
      file('attachment[]', 'log.txt', 'hello'),
      field('merge_containers', 'true'),
    ]),
    form([
      file(
        'files',
        'report.json',
        '{"numTotalTests":1,"testResults":[{"name":"a.test.js","assertionResults":[{"title":"t","status":"passed"}]}]}',
      ),
    ]),
  ];
}

/** A logger for the fuzzed server that keeps the last internal error, so a 500 is reported with its stack. */
export function faultLog(): { log: Logger; last(): string | null } {
  let last: string | null = null;
  return {
    log: (event, data = {}) => {
      if (/internal_error/.test(event))
        last = String(data.error ?? '')
          .split('\n')
          .slice(0, 5)
          .join(' | ');
    },
    last: () => last,
  };
}

export function frontEndOf(h: Harness, faults?: { last(): string | null }): Target {
  return frontEndTarget(
    {
      async post(body, contentType) {
        const r = await h.send({
          path: `/api/v2/profile/${h.profileId}/import?ignore_old_report_date=true`,
          headers: { 'content-type': contentType },
          body,
        });
        const code = r.json?.messages?.find((m: { severity: string }) => m.severity === 'error')?.code ?? null;
        return { status: r.status, code: r.status >= 500 && faults?.last() ? `${code}: ${faults.last()}` : code };
      },
      async spoolFiles() {
        return (await h.leftovers()).tmp;
      },
    },
    [],
  );
}

export async function runAll(
  targets: Target[],
  o: { secondsPerTarget: (t: Target) => number; seed: number; onDone?: (s: RunStats) => void },
): Promise<RunStats[]> {
  const coverage = new Coverage(coverageOf);
  await coverage.start();
  const out: RunStats[] = [];
  try {
    for (const target of targets) {
      const stats = await fuzz(target, coverage, { seconds: o.secondsPerTarget(target), seed: o.seed });
      out.push(stats);
      o.onDone?.(stats);
    }
  } finally {
    await coverage.stop();
  }
  return out;
}
