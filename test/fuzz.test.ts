/**
 * The bounded fuzz run of the suite: every formatter's parse and the multipart + zip front end
 * (scripts/fuzz/), coverage-guided, for TALLY_FUZZ_SECONDS in total (120 by default: a fifth for
 * the front end, the rest shared by the formatters). A crash fails the test with its input in base64;
 * `npm run fuzz` runs longer and writes crashes to .fuzz/crashes/.
 */
import t from 'tap';
import { startTally } from './helpers/tally.js';
import { faultLog, formatterTargets, frontEndOf, frontEndSeeds, runAll } from '../scripts/fuzz/run.js';

const total = Number(process.env.TALLY_FUZZ_SECONDS ?? 120);
const seed = Number(process.env.TALLY_FUZZ_SEED ?? 1);

t.test(`fuzz: every formatter and the front end, ${total} s, seed ${seed}`, async (t) => {
  // Generated inputs send wrong parts on purpose; no limit of the account may stop the run.
  const faults = faultLog();
  const h = await startTally(t, { limits: { maxConcurrentImportsPerAccount: 1000 }, log: faults.log });
  const front = frontEndOf(h, faults);
  front.seeds.push(...(await frontEndSeeds()));
  const formatters = formatterTargets();
  const frontSeconds = Math.max(1, Math.round(total / 5));
  const each = Math.max(1, (total - frontSeconds) / formatters.length);
  const stats = await runAll([front, ...formatters], {
    seed,
    secondsPerTarget: (target) => (target === front ? frontSeconds : each),
  });
  for (const s of stats) {
    t.comment(`${s.target}: ${s.execs} inputs in ${s.seconds.toFixed(1)} s, corpus ${s.corpus}`);
    t.ok(s.execs > 10, `${s.target}: ran (${s.execs} inputs)`);
    t.same(
      s.crashes.map((c) => c.error),
      [],
      `${s.target}: no crash`,
      { inputs: s.crashes.map((c) => ({ error: c.error, base64: c.input.toString('base64').slice(0, 4000) })) },
    );
  }
});
