/**
 * Coverage feedback for the fuzzer from V8 itself: precise block coverage through the inspector
 * (what `c8` reads), taken after every input. Taking it resets V8's counters, so each take is
 * what that one input ran. A block counts as new when it runs for the first time or in a new
 * hit-count bucket (1, 2, 3, 4–7, 8–15, … as AFL buckets loop counts).
 */
import { Session } from 'node:inspector/promises';

type Take = {
  result: { url: string; functions: { ranges: { startOffset: number; endOffset: number; count: number }[] }[] }[];
};

function bucket(count: number): number {
  if (count <= 3) return count;
  return 32 - Math.clz32(count);
}

export class Coverage {
  private readonly session = new Session();
  private readonly seen = new Set<string>();

  /** `include` picks the scripts whose blocks count (the code under test, not the fuzzer or tap). */
  constructor(private readonly include: (url: string) => boolean) {}

  async start(): Promise<void> {
    this.session.connect();
    await this.session.post('Profiler.enable');
    await this.session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
    await this.take();
  }

  async stop(): Promise<void> {
    await this.session.post('Profiler.stopPreciseCoverage').catch(() => undefined);
    this.session.disconnect();
  }

  /** Blocks (in buckets) seen so far. */
  get size(): number {
    return this.seen.size;
  }

  /** Takes the coverage of what ran since the last take; returns how many new blocks it holds. */
  async take(): Promise<number> {
    const { result } = (await this.session.post('Profiler.takePreciseCoverage')) as Take;
    let fresh = 0;
    for (const script of result) {
      if (!this.include(script.url)) continue;
      for (const fn of script.functions) {
        for (const r of fn.ranges) {
          if (r.count === 0) continue;
          const key = `${script.url}:${r.startOffset}:${r.endOffset}:${bucket(r.count)}`;
          if (!this.seen.has(key)) {
            this.seen.add(key);
            fresh++;
          }
        }
      }
    }
    return fresh;
  }
}
