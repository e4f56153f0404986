/**
 * `npm run fuzz`: the long fuzz run. Every target (or `--only KEY`, `--only multipart+zip`) for
 * `--seconds` each (default 120), seed `--seed` (default: the time). Crashing inputs are written to
 * .fuzz/crashes/<target>-<hash>.bin; the exit code is 1 when there are any.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startTally } from '../test/helpers/tally.js';
import { faultLog, formatterTargets, frontEndOf, frontEndSeeds, root, runAll } from './fuzz/run.js';

const { values } = parseArgs({
  options: { seconds: { type: 'string', default: '120' }, only: { type: 'string' }, seed: { type: 'string' } },
});
const seed = values.seed ? Number(values.seed) : Date.now() % 1_000_000;
const teardowns: (() => unknown)[] = [];
const faults = faultLog();
const h = await startTally(
  { teardown: (fn) => void teardowns.push(fn) },
  { limits: { maxConcurrentImportsPerAccount: 1000 }, log: faults.log },
);
const front = frontEndOf(h, faults);
front.seeds.push(...(await frontEndSeeds()));
const targets = [front, ...formatterTargets()].filter((t) => !values.only || t.name === values.only);
const outDir = path.join(root, '.fuzz', 'crashes');
let crashes = 0;
process.stdout.write(`seed ${seed}, ${values.seconds} s per target, ${targets.length} targets\n`);
await runAll(targets, {
  seed,
  secondsPerTarget: () => Number(values.seconds),
  onDone: (s) => {
    process.stdout.write(
      `${s.target}: ${s.execs} inputs in ${s.seconds.toFixed(0)} s, corpus ${s.corpus}, ${s.crashes.length} ` +
        `crash(es)\n`,
    );
    for (const c of s.crashes) {
      crashes++;
      process.stdout.write(`  ${c.error}\n    at ${c.where}\n`);
      void mkdir(outDir, { recursive: true }).then(() =>
        writeFile(path.join(outDir, `${s.target}-${c.hash}.bin`), c.input),
      );
    }
  },
});
for (const fn of teardowns.reverse()) await fn();
await rm(path.join(root, '.fuzz', 'tmp'), { recursive: true, force: true });
process.exit(crashes > 0 ? 1 : 0);
