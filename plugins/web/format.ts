/** How values read on the pages: durations, dates, sizes, percentages. */

export function duration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || Number.isNaN(ms)) return '–';
  if (ms < 1) return `${ms.toFixed(2)} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  const m = Math.floor(ms / 60_000);
  return `${m} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** `2026-11-22 14:03 UTC`: one zone for everybody reading the same page. */
export function when(iso: string | null | undefined): string {
  if (!iso) return '–';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** Decimals a rate may take to stay off the ends; past them it is cut toward the middle. */
const MAX_RATE_DECIMALS = 4;

/**
 * A rate (0–1) as a percentage: one decimal, rounded, except that a rate under 100% never reads
 * 100% and one over 0% never reads 0%. Where one decimal would round to an end, decimals are added
 * until it does not (2 failures in 4,239 tests read 99.95%); past four, the figure is cut toward
 * the middle (99.9999%). Exactly none and exactly all read `0%` and `100%`.
 */
export function percent(ratio: number | null): string {
  if (ratio === null || Number.isNaN(ratio)) return '–';
  if (ratio <= 0) return '0%';
  if (ratio >= 1) return '100%';
  const p = ratio * 100;
  for (let d = 1; d <= MAX_RATE_DECIMALS; d++) {
    const text = p.toFixed(d);
    const shown = Number(text);
    if (shown > 0 && shown < 100) return `${text}%`;
  }
  const step = 10 ** -MAX_RATE_DECIMALS;
  const cut = p > 50 ? Math.min(100 - step, Math.floor(p / step) * step) : Math.max(step, Math.ceil(p / step) * step);
  return `${cut.toFixed(MAX_RATE_DECIMALS)}%`;
}

export function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 ** 2) return `${(n / 1024).toFixed(1)} KiB`;
  if (n < 1024 ** 3) return `${(n / 1024 ** 2).toFixed(1)} MiB`;
  return `${(n / 1024 ** 3).toFixed(1)} GiB`;
}

/** `1 report`, `1,234 tests`. */
export function counted(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en')} ${n === 1 ? one : many}`;
}
