/**
 * Pictures as inline SVG, drawn on the server: no script, no style attributes (the CSP allows
 * neither); colours come from classes in tally.css. Numbers are formatted by us, text goes
 * through `html`, so nothing from a report reaches the markup unescaped.
 */
import { html, type Html } from './html.js';
import type { ContainerStatus } from '../../lib/formatter/api.js';
import { duration } from './format.js';

export interface PassFailPoint {
  passed: number;
  /** Failed and errored tests. */
  failed: number;
  label: string;
}

/** A chart's size in pixels, and its title: what a screen reader says of it. */
export interface ChartFrame {
  width: number;
  height: number;
  title: string;
}

const n = (x: number): string => (Math.round(x * 10) / 10).toString();

/** Bars oldest to newest: the height is the share of tests, failed on top of passed. */
export function passFailTrend(points: readonly PassFailPoint[], o: ChartFrame): Html {
  if (points.length === 0) return html`<span class="muted">no reports yet</span>`;
  const slot = o.width / Math.max(points.length, 1);
  const bar = Math.max(1, slot * 0.75);
  const bars = points.map((p, i) => {
    const total = p.passed + p.failed;
    const x = n(i * slot + (slot - bar) / 2);
    if (total === 0)
      return html`<rect class="bar-none" x="${x}" y="${n(o.height - 2)}" width="${n(bar)}" height="2"
        ><title>${p.label}: no decided tests</title></rect
      >`;
    // A share that is not none never draws as none: each part keeps at least a pixel.
    const failedH = Math.min((p.failed / total) * o.height, p.passed > 0 ? o.height - 1 : o.height);
    return html`<g
      ><title>${p.label}: ${p.passed} passed, ${p.failed} failed or errored</title
      ><rect class="bar-pass" x="${x}" y="${n(failedH)}" width="${n(bar)}" height="${n(o.height - failedH)}" />${
        p.failed > 0
          ? html`<rect class="bar-fail" x="${x}" y="0" width="${n(bar)}" height="${n(Math.max(failedH, 1))}" />`
          : ''
      }</g
    >`;
  });
  return chart(o, bars);
}

/** Every chart is the same `<svg>` element around what it draws, so that tally.css styles them alike. */
function chart(o: ChartFrame, drawing: Html | Html[]): Html {
  return html`<svg
    class="chart"
    role="img"
    width="${o.width}"
    height="${o.height}"
    viewBox="0 0 ${o.width} ${o.height}"
    xmlns="http://www.w3.org/2000/svg"
  >
    <title>${o.title}</title>
    ${drawing}
  </svg>`;
}

export interface DurationPoint {
  durationMs: number | null;
  status: ContainerStatus | null;
  label: string;
}

/** A line of durations oldest to newest, a dot per run coloured by its status. */
export function durationTrend(points: readonly DurationPoint[], o: ChartFrame): Html {
  const known = points.filter((p) => p.durationMs !== null);
  if (known.length === 0) return html`<p class="muted">No durations recorded for this test.</p>`;
  const max = Math.max(...known.map((p) => p.durationMs!), 1);
  const padX = 48;
  const padY = 12;
  const w = o.width - padX - 8;
  const h = o.height - 2 * padY;
  const step = points.length > 1 ? w / (points.length - 1) : 0;
  const xy = (i: number, d: number): [string, string] => [n(padX + i * step), n(padY + h - (d / max) * h)];
  const line = points
    .map((p, i) => (p.durationMs === null ? null : xy(i, p.durationMs).join(',')))
    .filter((x): x is string => x !== null)
    .join(' ');
  const dots = points.map((p, i) => {
    if (p.durationMs === null) return '';
    const [x, y] = xy(i, p.durationMs);
    return html`<circle class="dot dot-${p.status ?? 'unknown'}" cx="${x}" cy="${y}" r="3.5"
      ><title>${p.label}: ${duration(p.durationMs)} (${p.status ?? 'absent'})</title></circle
    >`;
  });
  const plot = html`<line class="axis" x1="${padX}" y1="${n(padY + h)}" x2="${n(padX + w)}" y2="${n(padY + h)}" />
    <line class="axis" x1="${padX}" y1="${padY}" x2="${padX}" y2="${n(padY + h)}" />
    <text class="axis-label" x="${padX - 6}" y="${padY + 4}" text-anchor="end">${duration(max)}</text>
    <text class="axis-label" x="${padX - 6}" y="${n(padY + h)}" text-anchor="end">0</text>
    <polyline class="trend" points="${line}" />
    ${dots}`;
  return chart(o, plot);
}

/** The small status square of a history cell. */
export function statusMark(status: ContainerStatus | null): Html {
  return html`<span class="mark mark-${status ?? 'none'}" aria-hidden="true"></span>`;
}
