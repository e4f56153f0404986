/**
 * A CI log's ANSI escapes as styled runs of text: SGR colours and weights become class names from a
 * fixed set, everything else an escape can do (cursor moves, erasing, titles, OSC 8 links, private
 * modes) is dropped, and other control characters go too. The runs carry text only: a page renders
 * each as an escaped `<span class>` (or a text node), so nothing in a log can become markup or a
 * link. The style at a chunk's end is handed to the next chunk, and an escape cut at the end is
 * left for the next chunk to read whole.
 */

export interface AnsiStyle {
  /** 0–15: the eight colours and their bright forms. */
  fg: number | null;
  bg: number | null;
  bold: boolean;
  dim: boolean;
  italic: boolean;
  underline: boolean;
}

export interface AnsiRun {
  /** Space-separated class names (`ansi-fg-1 ansi-bold`), empty for plain text. */
  classes: string;
  text: string;
}

export interface AnsiResult {
  runs: AnsiRun[];
  /** The style in force at the end, for the next chunk. */
  style: AnsiStyle;
  /** How many characters at the end are an escape cut short, not converted (read them again). */
  pending: number;
}

export const PLAIN: AnsiStyle = Object.freeze({
  fg: null,
  bg: null,
  bold: false,
  dim: false,
  italic: false,
  underline: false,
});

export function classesOf(s: AnsiStyle): string {
  const c: string[] = [];
  if (s.fg !== null) c.push(`ansi-fg-${s.fg}`);
  if (s.bg !== null) c.push(`ansi-bg-${s.bg}`);
  for (const flag of ['bold', 'dim', 'italic', 'underline'] as const) if (s[flag]) c.push(`ansi-${flag}`);
  return c.join(' ');
}

const CLASS = /^ansi-(?:(fg|bg)-(1[0-5]|[0-9])|(bold|dim|italic|underline))$/;

/** A style from its class names (as a page hands it back); anything not one of ours is ignored. */
export function styleOf(classes: string): AnsiStyle {
  const s: AnsiStyle = { ...PLAIN };
  for (const name of classes.split(/\s+/).slice(0, 8)) {
    const m = CLASS.exec(name);
    if (!m) continue;
    if (m[1] === 'fg') s.fg = Number(m[2]);
    else if (m[1] === 'bg') s.bg = Number(m[2]);
    else s[m[3] as 'bold' | 'dim' | 'italic' | 'underline'] = true;
  }
  return s;
}

function applySgr(s: AnsiStyle, params: string): void {
  // Colon sub-parameters (38:5:n) are read as the semicolon form.
  const p = params === '' ? [0] : params.split(/[;:]/).map((x) => (x === '' ? 0 : Number(x)));
  for (let i = 0; i < p.length; i++) {
    const n = p[i]!;
    if (n === 0) Object.assign(s, PLAIN);
    else if (n === 1) s.bold = true;
    else if (n === 2) s.dim = true;
    else if (n === 3) s.italic = true;
    else if (n === 4) s.underline = true;
    else if (n === 22) s.bold = s.dim = false;
    else if (n === 23) s.italic = false;
    else if (n === 24) s.underline = false;
    else if (n >= 30 && n <= 37) s.fg = n - 30;
    else if (n === 39) s.fg = null;
    else if (n >= 40 && n <= 47) s.bg = n - 40;
    else if (n === 49) s.bg = null;
    else if (n >= 90 && n <= 97) s.fg = n - 90 + 8;
    else if (n >= 100 && n <= 107) s.bg = n - 100 + 8;
    else if (n === 38 || n === 48) {
      // 256 colours: the first 16 are ours, the rest shown plain; true colour (2;r;g;b) plain too.
      const mode = p[i + 1];
      const colour = mode === 5 ? p[i + 2] : undefined;
      const value = colour !== undefined && colour >= 0 && colour < 16 ? colour : null;
      if (n === 38) s.fg = value;
      else s.bg = value;
      i += mode === 5 ? 2 : mode === 2 ? 4 : 1;
    }
  }
}

// ESC [ params intermediates final: a CSI sequence; ESC ] ... BEL or ESC \: an OSC (links, titles);
// ESC P/X/^/_ ... ESC \: strings of no use here; ESC with one or two characters: the rest.
// eslint-disable-next-line no-control-regex
const ESCAPE = /\u001b(?:\[([0-?]*)([ -/]*)([@-~])|[\]PX^_][\s\S]*?(?:\u0007|\u001b\\)|[ -/]*[0-~])/y;
// An escape that may still be cut short at the end of the text; an unended string escape only so far
// (beyond that its ESC is dropped and the rest read as text), so a chunk is never held back whole.
// eslint-disable-next-line no-control-regex
const CUT = /\u001b(?:\[[0-?]*[ -/]*|[\]PX^_](?:(?!\u0007|\u001b\\)[\s\S]){0,4096}|[ -/]*)?$/;
// Control characters but newline and tab, and C1 controls (U+009B is a one-character CSI).
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001a\u001c-\u001f\u007f-\u009f]/g;

/** The runs of one chunk of log, from the style the previous chunk ended in. */
export function ansiRuns(text: string, from: AnsiStyle = PLAIN, final = false): AnsiResult {
  const style: AnsiStyle = { ...from };
  const runs: AnsiRun[] = [];
  let pending = 0;
  let body = text;
  const cut = CUT.exec(text);
  // A cut escape is held back for the next chunk, or dropped when the log has ended.
  if (cut) {
    if (!final) pending = text.length - cut.index;
    body = text.slice(0, cut.index);
  }
  const push = (raw: string): void => {
    const plain = raw.replace(/\r\n/g, '\n').replace(/\r/g, '\n').replace(CONTROL, '');
    if (!plain) return;
    const classes = classesOf(style);
    const last = runs[runs.length - 1];
    if (last && last.classes === classes) last.text += plain;
    else runs.push({ classes, text: plain });
  };
  let at = 0;
  for (;;) {
    const esc = body.indexOf('\u001b', at);
    if (esc < 0) {
      push(body.slice(at));
      break;
    }
    push(body.slice(at, esc));
    ESCAPE.lastIndex = esc;
    const m = ESCAPE.exec(body);
    if (!m) {
      // A lone ESC before something that is no escape: dropped, the rest kept as text.
      at = esc + 1;
      continue;
    }
    if (m[3] === 'm' && m[2] === '' && /^[0-9;:]*$/.test(m[1] ?? '')) applySgr(style, m[1] ?? '');
    at = esc + m[0].length;
  }
  return { runs, style, pending };
}
