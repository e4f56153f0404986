/**
 * The one escaping helper of the pages: `html` is a tagged template whose every interpolated value is
 * escaped unless it is itself `Html` (made by `html` or, for markup built here, `trusted`). Arrays
 * are joined; null, undefined and false render as nothing.
 */

const SAFE = Symbol('tally.html');

export interface Html {
  readonly [SAFE]: true;
  readonly text: string;
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"'`]/g, (c) => ESCAPES[c]!);
}

/** Markup Tally generates itself (never user text): SVG paths, fixed fragments. */
export function trusted(text: string): Html {
  return { [SAFE]: true, text };
}

export type Value = Html | string | number | boolean | null | undefined | readonly Value[];

function isHtml(v: unknown): v is Html {
  return typeof v === 'object' && v !== null && SAFE in v;
}

function render(v: Value): string {
  if (v === null || v === undefined || v === false) return '';
  if (isHtml(v)) return v.text;
  if (Array.isArray(v)) return v.map(render).join('');
  return escapeHtml(String(v));
}

export function html(strings: TemplateStringsArray, ...values: Value[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]!) + strings[i + 1]!;
  return trusted(out);
}

/** A query string from parts, leaving out empty values; arrays repeat the name. */
export function query(params: Record<string, string | number | readonly string[] | null | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === null || v === undefined || v === '') continue;
    if (Array.isArray(v)) for (const x of v) q.append(k, x);
    else q.append(k, String(v));
  }
  const s = q.toString();
  return s ? `?${s}` : '';
}
