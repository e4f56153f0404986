/**
 * The TAP state machine: lines in, containers out. The file is one suite; each test point in
 * column 0 is a counted test; indented test points (subtests) are non-counted steps under the
 * point that summarises them. A subtest is written before its summary line (TAP 14, node:test,
 * Test::More) or after a summary ending in `{` and closed by `}` (Test2, node-tap buffered), so
 * the summary's id is reserved when its first child appears. Only the open levels, the last test
 * point and its YAML block are kept.
 */
import { capText as cap, fileTitle, FormatError, newContainer, TextBuffer } from '../../lib/formatter/api.js';
import { firstProducer, truncationMarker, worstStatus as worst } from '../../lib/formatter/api.js';
import type { Container, ContainerStatus, Emit, FailureInfo, HandlerContext } from '../../lib/formatter/api.js';
import type { Property } from '../../lib/formatter/api.js';
import { readYaml, type YamlEntry } from './yaml.js';

export interface TapHandler {
  line(text: string, lineNumber: number): void;
  /** Call after the last line: closes what is open and emits the file's suite. */
  end(): void;
}

interface Point {
  id: number;
  parentId: number;
  /** Index in `levels` of the level whose pending id this point's parent is, or -1. */
  parentLevel: number;
  indent: number;
  counted: boolean;
  title: string;
  number: string | null;
  ok: boolean;
  directive: 'skip' | 'todo' | null;
  reason: string;
  durationMs: number | null;
  braced: boolean;
  yaml: YamlEntry[];
  yamlText: string | null;
}

interface Level {
  indent: number;
  /** Id reserved for the next test point of this level, once a child of it was emitted. */
  pendingId: number | null;
  pendingSeen: Set<ContainerStatus>;
  /** A point written before its subtest (`ok 1 - name {`), open until its `}`. */
  braced: Point | null;
}

interface YamlBlock {
  point: Point;
  indent: number;
  lines: string[];
  chars: number;
  startLine: number;
}

/** Properties kept from one YAML block. */
const MAX_PROPERTIES = 50;
/** Subtest nesting followed; deeper TAP lines are kept as output (a crafted file could indent forever). */
const MAX_DEPTH = 64;

const POINT = /^(not ok|ok)(?=\s|$)/;
const PLAN = /^1\.\.(\d+)\s*(?:#\s*(.*))?$/;
const VERSION = /^TAP version (\d+)\s*$/i;
const SUBTEST = /^#\s*Subtest(?::\s*(.*))?$/;
// A directive: `#` after whitespace (so `\#` is not one), then skip…/todo… (counting rules).
const DIRECTIVE = /(^|\s)#\s*(skip|todo)\S*(?:\s+(.*))?$/i;
const TIME = /(^|\s)#\s*time=([\d.]+)(ms|s)?\s*$/i;
// YAML keys that become the failure or the duration rather than properties.
const CONSUMED = new Set(['message', 'stack', 'duration_ms']);

export function tapHandler(ctx: HandlerContext, emit: Emit): TapHandler {
  const limit = ctx.limits.maxTextChars;
  const rootId = ctx.nextId();
  const stdout = new TextBuffer(limit);
  const rootSeen = new Set<ContainerStatus>();
  const levels: Level[] = [newLevel(0)];
  const headers = new Map<number, string>();
  let awaiting: Point | null = null;
  let yaml: YamlBlock | null = null;
  let tapSeen = false;
  let stopped = false;
  let bailOut: string | null = null;
  let version: string | null = null;
  let plan: { count: number; reason: string | null } | null = null;
  let counted = 0;
  let ordinal = 0;
  const guess = firstProducer(ctx);

  const keepOutput = (text: string): void => {
    stdout.append(text);
    stdout.append('\n');
  };

  /** The id a child of `levels[k]` points at: its open braced point, else its reserved next point. */
  const parentAt = (k: number): { id: number; level: number } => {
    if (k < 0) return { id: rootId, level: -1 };
    const level = levels[k]!;
    if (level.braced) return { id: level.braced.id, level: -1 };
    level.pendingId ??= ctx.nextId();
    return { id: level.pendingId, level: k };
  };

  const emitPoint = (p: Point): void => {
    const status = statusOf(p);
    const container = pointContainer(p, status, limit);
    if (p.parentLevel >= 0) levels[p.parentLevel]?.pendingSeen.add(status);
    else if (p.counted) rootSeen.add(status);
    if (
      p.yaml.some((e) => e.key === 'type' && /^(test|suite)$/.test(e.value)) &&
      p.yaml.some((e) => e.key === 'duration_ms')
    )
      guess('node-test');
    emit(container);
  };

  const settle = (p: Point): void => {
    if (!p.braced) emitPoint(p);
  };

  /** Children were emitted for a point that never came: keep them under a non-counted suite. */
  const closePending = (k: number): void => {
    const level = levels[k]!;
    if (level.pendingId === null) return;
    const parent = parentAt(k - 1);
    const status = worst(level.pendingSeen) ?? 'unknown';
    if (parent.level >= 0) levels[parent.level]!.pendingSeen.add(status);
    const title = headers.get(level.indent) ?? headers.get(level.indent + 4) ?? '(subtest without a summary line)';
    const meta = { incomplete: 'no summary test point' };
    emit(newContainer({ id: level.pendingId, parentId: parent.id, type: 'suite', title, status, meta }));
    level.pendingId = null;
    level.pendingSeen = new Set();
  };

  const closeLevel = (k: number): void => {
    const level = levels[k]!;
    if (level.braced) {
      const p = level.braced;
      level.braced = null;
      emitPoint(p);
    }
    closePending(k);
  };

  /** The level of a TAP line at `indent`: deeper levels end, a deeper indent opens a level; -1 past MAX_DEPTH. */
  const levelAt = (indent: number): number => {
    while (levels.length > 1 && levels[levels.length - 1]!.indent > indent) {
      closeLevel(levels.length - 1);
      levels.pop();
    }
    // A `# Subtest` header sits at its summary's indent (Test::More) or one step in (TAP 14), so
    // one deeper than this line belongs to a subtest that is over.
    for (const h of [...headers.keys()]) if (h > indent + 4) headers.delete(h);
    const top = levels[levels.length - 1]!.indent;
    if (top < indent) {
      // A subtest whose first line is its own first subtest (`outer` → `inner` → `ok 1`) skips a
      // level: open the levels in between, where headers were seen or every 4 spaces.
      const between = [...headers.keys()].filter((h) => h > top && h < indent).sort((a, b) => a - b);
      if (between.length === 0 && (indent - top) % 4 === 0 && indent - top <= 4 * MAX_DEPTH)
        for (let i = top + 4; i < indent; i += 4) between.push(i);
      if (levels.length + between.length >= MAX_DEPTH) return -1;
      for (const i of between) levels.push(newLevel(i));
      levels.push(newLevel(indent));
    }
    return levels.length - 1;
  };

  const finishYaml = (): void => {
    const block = yaml!;
    yaml = null;
    const entries = readYaml(block.lines);
    block.point.yaml = entries;
    block.point.yamlText = dedentText(block.lines);
    const duration = entries.find((e) => e.key === 'duration_ms');
    if (duration) {
      const ms = Number(duration.value);
      if (Number.isFinite(ms) && ms >= 0) block.point.durationMs = ms;
    }
    settle(block.point);
  };

  const closeAll = (): void => {
    if (yaml) finishYaml();
    if (awaiting) {
      settle(awaiting);
      awaiting = null;
    }
    for (let k = levels.length - 1; k >= 0; k--) closeLevel(k);
    levels.length = 1;
  };

  const point = (indent: number, body: string): boolean => {
    const k = levelAt(indent);
    if (k < 0) return false;
    tapSeen = true;
    const level = levels[k]!;
    if (level.braced) {
      // A new point at the level of an open `{`: its `}` never came.
      const p = level.braced;
      level.braced = null;
      emitPoint(p);
    }
    const parsed = parsePoint(body);
    const id = level.pendingId ?? ctx.nextId();
    level.pendingId = null;
    level.pendingSeen = new Set();
    const parent = parentAt(k - 1);
    ordinal++;
    const isCounted = indent === 0;
    if (isCounted) counted++;
    const title =
      parsed.title ||
      headers.get(indent) ||
      headers.get(indent + 4) ||
      `test #${parsed.number ?? (isCounted ? counted : ordinal)}`;
    headers.delete(indent);
    headers.delete(indent + 4);
    const p: Point = {
      id,
      parentId: parent.id,
      parentLevel: parent.level,
      indent,
      counted: isCounted,
      title,
      number: parsed.number,
      ok: parsed.ok,
      directive: parsed.directive,
      reason: parsed.reason,
      durationMs: parsed.durationMs,
      braced: parsed.braced,
      yaml: [],
      yamlText: null,
    };
    if (p.braced) level.braced = p;
    awaiting = p;
    return true;
  };

  const closeBrace = (indent: number): boolean => {
    const k = levels.findIndex((l) => l.indent === indent && l.braced !== null);
    if (k < 0) return false;
    levelAt(indent);
    closeLevel(k);
    return true;
  };

  return {
    line(raw, lineNumber) {
      if (stopped) return;
      const lead = /^[ \t]*/.exec(raw)![0];
      const indent = lead.length + 3 * (lead.split('\t').length - 1);
      const body = raw.slice(lead.length).trimEnd();

      if (yaml) {
        if (body === '...' && indent >= yaml.point.indent && indent <= yaml.indent) {
          finishYaml();
          return;
        }
        if (body === '' || indent >= yaml.indent) {
          // The block is held until its `...`: keep at most the text limit of it.
          if (yaml.chars < limit) {
            let kept = raw.slice(0, limit - yaml.chars);
            yaml.chars += kept.length + 1;
            // Marked where it is cut, so the value read from it shows the cut.
            if (kept.length < raw.length || yaml.chars >= limit) kept += ` ${truncationMarker(limit)}`;
            yaml.lines.push(kept);
          }
          return;
        }
        // A shallower line ends a block whose `...` is missing.
        finishYaml();
      }
      if (awaiting) {
        const p: Point = awaiting;
        awaiting = null;
        // A YAML block belongs to the point right above it, indented past it.
        if (body === '---' && indent > p.indent) {
          yaml = { point: p, indent, lines: [], chars: 0, startLine: lineNumber };
          return;
        }
        settle(p);
      }
      if (body === '') return;

      if (body.startsWith('Bail out!')) {
        if (indent === 0) {
          // Counting rules: nothing after a top-level bail out counts.
          bailOut = body.slice('Bail out!'.length).trim();
          tapSeen = true;
          stopped = true;
          closeAll();
          return;
        }
        keepOutput(raw);
        return;
      }
      if (POINT.test(body) && point(indent, body)) return;
      const planMatch = PLAN.exec(body);
      const planLevel = planMatch ? levelAt(indent) : -1;
      if (planMatch && planLevel >= 0) {
        tapSeen = true;
        // A plan at a level whose reserved point never came: that subtest had no summary line.
        closePending(planLevel);
        if (indent === 0) plan = { count: Number(planMatch[1]), reason: planMatch[2]?.trim() || null };
        return;
      }
      const versionMatch = VERSION.exec(body);
      if (versionMatch && levelAt(indent) >= 0) {
        tapSeen = true;
        if (indent === 0) version ??= versionMatch[1]!;
        return;
      }
      if (body === '}' && closeBrace(indent)) return;
      const subtest = SUBTEST.exec(body);
      if (subtest) {
        headers.set(indent, subtest[1]?.trim() ?? '');
        return;
      }
      if (indent === 0 && body.startsWith('#')) {
        if (/^#\s*TAP emitted by Test::More/i.test(body)) guess('perl-test-more');
        else if (/^#\s*duration_ms\s+[\d.]+$/.test(body)) guess('node-test');
        else if (/^#\s*time=[\d.]+m?s$/.test(body)) guess('node-tap');
      }
      if (/^pragma\s+[+-]/.test(body)) return;
      // Comments and non-TAP lines (console output of the tests) are kept as the file's output.
      keepOutput(raw);
    },

    end() {
      if (!stopped) {
        if (yaml)
          throw new FormatError(
            'The TAP stream ends inside a YAML block (`---` without `...`): the file looks truncated',
            yaml.startLine,
            null,
          );
        if (levels.some((l) => l.pendingId !== null || l.braced !== null)) {
          throw new FormatError(
            'The TAP stream ends inside a subtest (indented test points whose summary test point never came): the ' +
              'file looks truncated',
          );
        }
        if (!tapSeen)
          throw new FormatError(
            'The file holds no TAP: no `TAP version` line, plan (`1..N`) or test point (`ok`/`not ok`); send TAP ' +
              'output or choose the formatter for its format',
          );
      }
      closeAll();
      const out = stdout.empty ? null : stdout.value();
      let status: ContainerStatus = worst(rootSeen) ?? (plan !== null && plan.count === 0 ? 'skipped' : 'passed');
      let failure: FailureInfo | null = null;
      if (bailOut !== null) {
        status = 'errored';
        failure = { message: `Bail out!${bailOut ? ` ${bailOut}` : ''}`, type: 'bail out', stack: null };
      } else if (plan !== null && plan.count !== counted) {
        status = 'errored';
        failure = {
          message: `Planned ${plan.count} tests but ${counted} test points were reported`,
          type: 'plan',
          stack: null,
        };
      }
      const meta: Record<string, string> = {};
      if (version !== null) meta['tapVersion'] = version;
      if (plan !== null) meta['plan'] = `1..${plan.count}`;
      if (plan?.reason) meta['planReason'] = plan.reason;
      const title = fileTitle(ctx.fileName, 'TAP');
      const output = out !== null && out.trim() !== '' ? out : null;
      emit(newContainer({ id: rootId, parentId: null, type: 'suite', title, status, failure, stdout: output, meta }));
    },
  };
}

function newLevel(indent: number): Level {
  return { indent, pendingId: null, pendingSeen: new Set(), braced: null };
}

interface ParsedPoint {
  ok: boolean;
  number: string | null;
  title: string;
  directive: 'skip' | 'todo' | null;
  reason: string;
  durationMs: number | null;
  braced: boolean;
}

/** `ok 3 - title # SKIP reason`, `not ok 1 - name {`, `ok 2 - x # time=5.26ms`. */
export function parsePoint(body: string): ParsedPoint {
  const ok = !body.startsWith('not ok');
  let rest = body.slice(ok ? 2 : 6).trim();
  let number: string | null = null;
  const num = /^(\d+)(?=\s|$)/.exec(rest);
  if (num) {
    number = num[1]!;
    rest = rest.slice(num[0].length).trimStart();
  }
  if (rest === '-' || rest.startsWith('- ')) rest = rest.slice(1).trimStart();
  let braced = false;
  if (rest === '{' || rest.endsWith(' {')) {
    braced = true;
    rest = rest.slice(0, -1).trimEnd();
  }
  let directive: 'skip' | 'todo' | null = null;
  let reason = '';
  let durationMs: number | null = null;
  const d = DIRECTIVE.exec(rest);
  if (d) {
    directive = d[2]!.toLowerCase() === 'skip' ? 'skip' : 'todo';
    reason = (d[3] ?? '').trim();
    rest = rest.slice(0, d.index + d[1]!.length);
  } else {
    const t = TIME.exec(rest);
    if (t) {
      const n = Number(t[2]);
      if (Number.isFinite(n)) durationMs = t[3]?.toLowerCase() === 's' ? n * 1000 : n;
      rest = rest.slice(0, t.index + t[1]!.length);
    }
  }
  const title = rest.trim().replace(/\\([\\#])/g, '$1');
  return { ok, number, title, directive, reason, durationMs, braced };
}

/** Counting rules: SKIP → skipped; `not ok # TODO` → skipped; `ok # TODO` → passed. */
export function statusOf(p: Pick<Point, 'ok' | 'directive'>): ContainerStatus {
  if (p.directive === 'skip') return 'skipped';
  if (p.directive === 'todo') return p.ok ? 'passed' : 'skipped';
  return p.ok ? 'passed' : 'failed';
}

function pointContainer(p: Point, status: ContainerStatus, limit: number): Container {
  // YAML values need no cap of their own: the block was kept to the text limit as it was read.
  const get = (key: string): string | null => {
    const e = p.yaml.find((x) => x.key === key);
    return e && e.value !== '' ? e.value : null;
  };
  let failure: FailureInfo | null = null;
  const typeValue = get('type');
  if (status === 'failed' || (status === 'skipped' && p.directive === 'todo' && !p.ok)) {
    const message = get('message') ?? get('error') ?? (p.reason ? cap(p.reason, limit) : null);
    const type =
      get('name') ?? (typeValue !== null && !/^(test|suite)$/.test(typeValue) ? typeValue : null) ?? get('failureType');
    const stack = get('stack') ?? get('at') ?? (message === null ? p.yamlText : null);
    if (message !== null || type !== null || stack !== null) failure = { message, type, stack };
  } else if (status === 'skipped' && p.reason) {
    failure = { message: cap(p.reason, limit), type: null, stack: null };
  }
  const properties: Property[] = [];
  for (const e of p.yaml) {
    if (properties.length >= MAX_PROPERTIES) break;
    if (CONSUMED.has(e.key) || e.value === '') continue;
    properties.push({ name: e.key, value: e.value });
  }
  const meta: Record<string, string> = {};
  if (p.number !== null) meta['number'] = p.number;
  if (p.directive !== null) meta['directive'] = p.directive === 'skip' ? 'SKIP' : 'TODO';
  if (p.directive === 'todo' && p.reason) meta['todo'] = cap(p.reason, 1000);
  const location = get('location');
  if (location !== null) meta['location'] = cap(location, 1000);
  const { id, parentId, title, durationMs } = p;
  const type = p.counted ? 'test' : 'step';
  return newContainer({ id, parentId, type, title, status, durationMs, failure, properties, meta });
}

function dedentText(lines: string[]): string | null {
  let min = Infinity;
  for (const l of lines) if (l.trim() !== '') min = Math.min(min, l.length - l.trimStart().length);
  if (min === Infinity) return null;
  return lines
    .map((l) => l.slice(Math.min(min, l.length - l.trimStart().length)))
    .join('\n')
    .trimEnd();
}
