/**
 * The fuzzing loop: start from the seeds, mutate a corpus entry, run the target, keep the input
 * when it reached code (or a hit count) no earlier input did. A target reports a crash by throwing
 * a `Crash`; anything else it throws is a crash too (a bug that would reach users as a 500 or kill
 * the process). Inputs that run longer than `timeoutMs` are crashes.
 */
import { createHash } from 'node:crypto';
import { Coverage } from './coverage.js';
import { mutate, seeded } from './mutate.js';

export interface Target {
  name: string;
  seeds: Buffer[];
  dictionary: Buffer[];
  /** Runs one input; resolves when it was handled as designed, throws when it was not. */
  run(input: Buffer): Promise<void>;
}

export interface Found {
  target: string;
  input: Buffer;
  error: string;
  /** Where it was thrown: the first frames of the stack. */
  where: string;
  hash: string;
}

export interface RunStats {
  target: string;
  execs: number;
  corpus: number;
  blocks: number;
  crashes: Found[];
  seconds: number;
}

const withTimeout = <T>(p: Promise<T>, ms: number): Promise<T> =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    p.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });

export async function fuzz(
  target: Target,
  coverage: Coverage,
  o: { seconds: number; seed: number; timeoutMs?: number; maxCrashes?: number },
): Promise<RunStats> {
  const rnd = seeded(o.seed);
  const corpus: Buffer[] = [];
  const crashes: Found[] = [];
  const started = Date.now();
  let execs = 0;
  const runOne = async (input: Buffer): Promise<boolean> => {
    execs++;
    try {
      await withTimeout(target.run(input), o.timeoutMs ?? 10_000);
    } catch (e) {
      const error = e instanceof Error ? `${e.name}: ${e.message}`.slice(0, 500) : String(e);
      const hash = createHash('sha1').update(input).digest('hex').slice(0, 16);
      // One report per distinct error text keeps a run from filling up with the same bug.
      const where =
        e instanceof Error
          ? (e.stack ?? '')
              .split('\n')
              .slice(1, 5)
              .map((l) => l.trim())
              .join(' | ')
          : '';
      if (!crashes.some((c) => c.error === error)) crashes.push({ target: target.name, input, error, where, hash });
    }
    return (await coverage.take()) > 0;
  };
  await coverage.take();
  for (const s of target.seeds) if (await runOne(s)) corpus.push(s);
  if (corpus.length === 0) corpus.push(...target.seeds.slice(0, 1), Buffer.alloc(0));
  const deadline = started + o.seconds * 1000;
  while (Date.now() < deadline && crashes.length < (o.maxCrashes ?? 5)) {
    const parent = corpus[Math.floor(rnd() * corpus.length)]!;
    const child = mutate(parent, corpus, target.dictionary, rnd);
    if (await runOne(child)) corpus.push(child);
  }
  return {
    target: target.name,
    execs,
    corpus: corpus.length,
    blocks: coverage.size,
    crashes,
    seconds: (Date.now() - started) / 1000,
  };
}
