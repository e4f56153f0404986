/**
 * In-process limits: concurrent imports per account, and failed API-key attempts per client
 * address (brute-force protection). Per process: behind a load balancer each instance counts its own.
 */

export class ConcurrencyLimiter {
  private readonly active = new Map<string, number>();

  constructor(private readonly max: number) {}

  /** A release function, or null when the key is at its limit. */
  acquire(key: string): (() => void) | null {
    const n = this.active.get(key) ?? 0;
    if (n >= this.max) return null;
    this.active.set(key, n + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.active.get(key) ?? 1) - 1;
      if (left <= 0) this.active.delete(key);
      else this.active.set(key, left);
    };
  }
}

/** Counts failures per key in a fixed window; past `max` the key is blocked until the window ends. */
export class FailureWindow {
  private readonly windows = new Map<string, { count: number; until: number }>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Milliseconds until the key may try again, or 0. */
  blockedFor(key: string): number {
    const w = this.windows.get(key);
    if (!w) return 0;
    const left = w.until - this.now();
    if (left <= 0) {
      this.windows.delete(key);
      return 0;
    }
    return w.count >= this.max ? left : 0;
  }

  fail(key: string): void {
    const t = this.now();
    const w = this.windows.get(key);
    if (!w || w.until <= t) this.windows.set(key, { count: 1, until: t + this.windowMs });
    else w.count++;
    // Bounded: a flood of distinct addresses cannot grow the map without end.
    if (this.windows.size > 100_000) for (const [k, v] of this.windows) if (v.until <= t) this.windows.delete(k);
  }
}
