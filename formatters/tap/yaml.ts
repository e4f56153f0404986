/**
 * A minimal reader for TAP's YAML diagnostic blocks: the top-level `key: value` pairs of one
 * mapping, nothing more. Plain, quoted and block scalars are decoded; a nested mapping or list is
 * kept as its dedented text. Tags, anchors, aliases and merge keys are never interpreted — a YAML
 * library would resolve them, and a result file is untrusted input — so they stay literal text.
 */

export interface YamlEntry {
  key: string;
  value: string;
  /** The value is a nested mapping or list, kept as text. */
  nested: boolean;
}

/** Keys read per block; the rest is ignored. */
const MAX_ENTRIES = 200;

const KEY = /^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s#'"{}[\],&*!|>%@`-][^:]*?|-[^\s:][^:]*?)\s*:(?:\s+(.*))?$/;
const BLOCK_SCALAR = /^([|>])([+-]?)\d*\s*(?:#.*)?$/;

interface Pending {
  key: string;
  inline: string;
  lines: string[];
}

/** Reads the lines between `---` and `...` (indentation kept; the block's own indent is found here). */
export function readYaml(lines: readonly string[]): YamlEntry[] {
  let base = Infinity;
  for (const l of lines) if (l.trim() !== '') base = Math.min(base, indentOf(l));
  if (base === Infinity) return [];
  const entries: YamlEntry[] = [];
  let cur: Pending | null = null;
  const flush = (): void => {
    if (cur && entries.length < MAX_ENTRIES) entries.push(finish(cur));
    cur = null;
  };
  for (const line of lines) {
    if (line.trim() === '') {
      cur?.lines.push('');
      continue;
    }
    const indent = indentOf(line);
    if (indent > base) {
      cur?.lines.push(line);
      continue;
    }
    const text = line.slice(indent);
    if (text.startsWith('#')) continue;
    // A list may sit at the indentation of its key (`key:\n- a\n- b`).
    if (cur !== null && (text === '-' || text.startsWith('- ')) && (cur as Pending).inline === '') {
      (cur as Pending).lines.push(line);
      continue;
    }
    const m = KEY.exec(text);
    if (m) {
      flush();
      cur = { key: unquoteKey(m[1]!), inline: (m[2] ?? '').trim(), lines: [] };
      continue;
    }
    // A plain scalar continued on the next line at the same indent is malformed YAML; keep it anyway.
    cur?.lines.push(line);
  }
  flush();
  return entries;
}

function finish(p: Pending): YamlEntry {
  const lines = [...p.lines];
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  const block = BLOCK_SCALAR.exec(p.inline);
  if (block) {
    const body = dedent(lines);
    return { key: p.key, value: block[1] === '|' ? body.join('\n') : fold(body), nested: false };
  }
  if (p.inline === '') return { key: p.key, value: dedent(lines).join('\n'), nested: lines.length > 0 };
  const joined = [p.inline, ...lines.map((l) => l.trim())].filter((l, i) => i === 0 || l !== '').join(' ');
  if (p.inline.startsWith('"')) return { key: p.key, value: doubleQuoted(joined), nested: false };
  if (p.inline.startsWith("'")) return { key: p.key, value: singleQuoted(joined), nested: false };
  // A plain scalar ends at ` #` (a comment).
  return { key: p.key, value: joined.replace(/\s+#.*$/, ''), nested: false };
}

function indentOf(line: string): number {
  let i = 0;
  while (i < line.length && line[i] === ' ') i++;
  return i;
}

function dedent(lines: string[]): string[] {
  let min = Infinity;
  for (const l of lines) if (l.trim() !== '') min = Math.min(min, indentOf(l));
  if (min === Infinity) return lines.map(() => '');
  return lines.map((l) => l.slice(Math.min(min, indentOf(l))));
}

/** Folded (`>`) block: lines join with spaces, blank lines are line breaks. */
function fold(lines: string[]): string {
  let out = '';
  let pendingBreak = false;
  for (const l of lines) {
    if (l === '') {
      out += '\n';
      pendingBreak = true;
      continue;
    }
    if (out !== '' && !pendingBreak) out += ' ';
    out += l;
    pendingBreak = false;
  }
  return out;
}

function unquoteKey(raw: string): string {
  if (raw.startsWith('"')) return doubleQuoted(raw);
  if (raw.startsWith("'")) return singleQuoted(raw);
  return raw.trim();
}

function singleQuoted(raw: string): string {
  const end = raw.length > 1 && raw.endsWith("'") ? raw.length - 1 : raw.length;
  return raw.slice(1, end).replace(/''/g, "'");
}

const ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  '0': '\0',
  a: '\x07',
  b: '\b',
  e: '\x1b',
  f: '\f',
  v: '\v',
  '"': '"',
  '\\': '\\',
  '/': '/',
  ' ': ' ',
  N: '\u0085',
  _: '\u00a0',
};

function doubleQuoted(raw: string): string {
  const end = raw.length > 1 && raw.endsWith('"') && !raw.endsWith('\\"') ? raw.length - 1 : raw.length;
  const body = raw.slice(1, end);
  return body.replace(/\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)/g, (whole, esc: string) => {
    if (esc.length > 1) {
      const code = parseInt(esc.slice(1), 16);
      return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ESCAPES[esc] ?? esc;
  });
}
