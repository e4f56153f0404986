/**
 * The legacy `xcrun xcresulttool get --format json` objects (Xcode 11–15, `--legacy` since 16),
 * where every value is wrapped (`{"_type":{"_name":"String"},"_value":"…"}`):
 *
 * - `ActionTestPlanRunSummaries` (`--id <testsRef>`): the test tree. Testables become suites, test
 *   groups (classes) suites, `ActionTestMetadata` tests. The groups xcodebuild adds around a
 *   testable (`All tests`, `Selected tests`, `App.xctest`) are left out, as in the console output.
 * - `ActionsInvocationRecord` (no `--id`): the run, with its tests only as counts and the failures
 *   as messages. Alone it is refused (it names no passed test); with the test tree in the same
 *   file (one JSON value after the other) its messages become the failed tests' failures.
 * - `ActionTestSummary` (`--id <summaryRef>`): one test's details; its failure messages likewise.
 *
 * The tree names no failure message, so failed tests and the suites above them wait for the end of
 * the file (at most MAX_HELD failed tests), when every message the file holds is known.
 */
import { capText, FormatError, newContainer, ownCopy, secondsToMs, suiteStatus } from '../../lib/formatter/api.js';
import type { Container, ContainerStatus, Emit, FailureInfo, HandlerContext } from '../../lib/formatter/api.js';
import { isExpectedFailure, resultStatus } from './values.js';

/** Failed tests waiting for their messages; past it a failed test is emitted without. */
const MAX_HELD = 1000;
/** Messages kept from the file (distinct test names). */
const MAX_INDEXED = 10_000;
const MAX_MESSAGES_PER_TEST = 100;

export interface LegacyNode {
  parent: LegacyNode | null;
  type: string | null;
  fields: Record<string, string>;
  id: number | null;
  seen: Set<ContainerStatus>;
  /** A testable's duration, from the `All tests` group around its classes. */
  wrapperMs?: number | null;
}

interface Message {
  text: string;
  file: string | null;
  line: string | null;
}

interface HeldSuite {
  node: LegacyNode;
  container: Container;
}

export class LegacyTree {
  private readonly limit: number;
  private readonly index = new Map<string, Message[]>();
  private readonly heldTests: Container[] = [];
  private readonly heldSuites: HeldSuite[] = [];
  private sawTree = false;
  private counts: string | null = null;
  private sawDetails = false;

  constructor(
    private readonly ctx: HandlerContext,
    private readonly emit: Emit,
  ) {
    this.limit = ctx.limits.maxTextChars;
  }

  open(parent: LegacyNode | null): LegacyNode {
    return { parent, type: null, fields: {}, id: null, seen: new Set() };
  }

  /** A field of a node, taken whole: `_type`, a wrapped value, or (for records) issues and summaries. */
  field(node: LegacyNode, key: string, value: unknown): void {
    if (key === '_type') {
      const name = record(value)?.['_name'];
      if (typeof name === 'string') node.type = name;
      if (node.type === 'ActionTestPlanRunSummaries') this.sawTree = true;
      return;
    }
    const scalar = wrapped(value);
    if (scalar !== null) {
      node.fields[key] = capText(scalar, this.limit);
      return;
    }
    if (node.type === 'ActionsInvocationRecord') this.recordField(key, value);
    else if (node.type === 'ActionTestSummary') this.summaryField(node, key, value);
  }

  close(node: LegacyNode): void {
    switch (node.type) {
      case 'ActionTestMetadata':
        return this.test(node);
      case 'ActionTestableSummary':
        return this.suite(node);
      case 'ActionTestSummaryGroup': {
        if (!isWrapper(node)) return this.suite(node);
        const testable = this.containerOf(node.parent);
        if (testable && testable.wrapperMs == null) testable.wrapperMs = duration(node.fields['duration']);
        return;
      }
      case 'ActionTestSummary':
        this.sawDetails = true;
        return;
      default:
        return;
    }
  }

  /** After the last JSON value: failed tests get the messages the file holds, then the suites close. */
  end(): void {
    if (!this.sawTree) {
      const what = this.counts
        ? `the invocation record of an .xcresult, which lists its ${this.counts} only as counts`
        : this.sawDetails
          ? "one test's details (ActionTestSummary), not the test tree"
          : 'legacy xcresulttool JSON without a test tree';
      throw new FormatError(
        `The file is ${what}. Send the tests: \`xcrun xcresulttool get test-results tests --path R.xcresult\` ` +
          '(Xcode 16+), or `xcrun xcresulttool get --legacy --format json --path R.xcresult --id <testsRef id>` ' +
          '(the record may come first in the same file, for its failure messages)',
      );
    }
    for (const c of this.heldTests) this.emitFailed(c);
    for (const { node, container } of this.heldSuites) {
      container.status = suiteStatus(node.seen);
      this.containerOf(node.parent)?.seen.add(container.status);
      this.emit(container);
    }
  }

  private test(node: LegacyNode): void {
    const f = node.fields;
    const parent = this.containerOf(node.parent);
    const status = resultStatus(f['testStatus']) ?? 'unknown';
    const meta: Record<string, string> = {};
    if (f['identifier']) meta['identifier'] = f['identifier'];
    if (f['testStatus'] && resultStatus(f['testStatus']) === null) meta['testStatus'] = f['testStatus'];
    if (isExpectedFailure(f['testStatus'])) meta['expectedFailure'] = 'true';
    const c = newContainer({
      id: this.ctx.nextId(),
      parentId: parent ? this.idOf(parent) : null,
      type: 'test',
      title: f['name'] ?? f['identifier'] ?? '(unnamed test)',
      status,
      durationMs: duration(f['duration']),
      meta,
    });
    parent?.seen.add(status);
    if ((status === 'failed' || status === 'skipped') && this.heldTests.length < MAX_HELD) this.heldTests.push(c);
    else if (status === 'failed' || status === 'skipped') this.emitFailed(c);
    else this.emit(c);
  }

  private emitFailed(c: Container): void {
    const key = c.meta?.['identifier'];
    const messages = key === undefined ? undefined : this.index.get(keyOf(key));
    if (messages && messages.length > 0) {
      const first = messages[0]!;
      if (first.file) c.meta = { ...c.meta, file: first.file, ...(first.line ? { line: first.line } : {}) };
      const lines = messages.map((m) => (m.file ? `${m.file}${m.line ? `:${m.line}` : ''}: ${m.text}` : m.text));
      c.failure = {
        message: capText(first.text, this.limit),
        type: null,
        stack: lines.length > 1 || first.file ? capText(lines.join('\n'), this.limit) : null,
      } satisfies FailureInfo;
    }
    this.emit(c);
  }

  private suite(node: LegacyNode): void {
    const f = node.fields;
    const parent = this.containerOf(node.parent);
    const meta: Record<string, string> = {};
    for (const k of ['identifier', 'targetName', 'testKind', 'testLanguage', 'testRegion'])
      if (f[k] && f[k] !== f['name']) meta[k] = f[k];
    const configuration = this.configurationOf(node);
    if (configuration) meta['configuration'] = configuration;
    const container = newContainer({
      id: this.idOf(node),
      parentId: parent ? this.idOf(parent) : null,
      type: 'suite',
      title: f['name'] ?? f['targetName'] ?? f['identifier'] ?? '(unnamed suite)',
      status: 'passed',
      durationMs: duration(f['duration']) ?? node.wrapperMs ?? null,
      meta,
    });
    this.heldSuites.push({ node, container });
  }

  /** The suite a node's children belong to: the nearest testable or group that is not a wrapper. */
  private containerOf(node: LegacyNode | null): LegacyNode | null {
    for (let n = node; n; n = n.parent)
      if (n.type === 'ActionTestableSummary' || (n.type === 'ActionTestSummaryGroup' && !isWrapper(n))) return n;
    return null;
  }

  private idOf(node: LegacyNode): number {
    return (node.id ??= this.ctx.nextId());
  }

  private configurationOf(node: LegacyNode): string | null {
    if (node.type !== 'ActionTestableSummary') return null;
    for (let n = node.parent; n; n = n.parent)
      if (n.type === 'ActionTestPlanRunSummary') return n.fields['name'] ?? null;
    return null;
  }

  /** `issues.testFailureSummaries` of an invocation record: the failed tests' messages. */
  private recordField(key: string, value: unknown): void {
    if (key === 'metrics') {
      const m = record(value);
      const n = (k: string): string | null => wrapped(m?.[k]);
      const tests = n('testsCount');
      if (tests !== null)
        this.counts = `${tests} tests (${n('testsFailedCount') ?? 0} failed, ${n('testsSkippedCount') ?? 0} skipped)`;
      return;
    }
    if (key !== 'issues') return;
    for (const s of values(record(value)?.['testFailureSummaries'])) {
      const name = wrapped(s['testCaseName']);
      const text = wrapped(s['message']);
      if (name === null || text === null) continue;
      const url = wrapped(record(s['documentLocationInCreatingWorkspace'])?.['url']);
      this.add(name, { text, ...location(url) });
    }
  }

  /** `failureSummaries` and `skipNoticeSummary` of one test's details. */
  private summaryField(node: LegacyNode, key: string, value: unknown): void {
    const name = node.fields['identifier'];
    if (name === undefined) return;
    if (key === 'failureSummaries')
      for (const s of values(value)) {
        const text = wrapped(s['message']);
        if (text !== null) this.add(name, { text, file: wrapped(s['fileName']), line: wrapped(s['lineNumber']) });
      }
    else if (key === 'skipNoticeSummary') {
      const text = wrapped(record(value)?.['message']);
      if (text !== null) this.add(name, { text, file: null, line: null });
    }
  }

  private add(name: string, m: Message): void {
    const key = keyOf(name);
    let list = this.index.get(key);
    if (!list) {
      if (this.index.size >= MAX_INDEXED) return;
      this.index.set(key, (list = []));
    }
    const message = { text: ownCopy(m.text), file: m.file === null ? null : ownCopy(m.file), line: m.line };
    if (list.length < MAX_MESSAGES_PER_TEST && !list.some((x) => x.text === message.text && x.line === message.line))
      list.push(message);
  }
}

/** The groups xcodebuild wraps a testable's classes in: `All tests`, `Selected tests`, `App.xctest`. */
function isWrapper(node: LegacyNode): boolean {
  const name = node.fields['name'] ?? node.fields['identifier'] ?? '';
  return name === 'All tests' || name === 'Selected tests' || /\.(?:xc|oc)test$/.test(name);
}

/** `Class/test()` (the tree, a test's details) and `Class.test()` (the record's messages) name one test. */
function keyOf(name: string): string {
  return name.replaceAll('/', '.');
}

function record(v: unknown): Record<string, unknown> | null {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

/** `{"_type":…,"_value":"x"}` → `x`; null for anything else. */
function wrapped(v: unknown): string | null {
  const value = record(v)?.['_value'];
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : null;
}

/** The elements of a wrapped array (`{"_type":{"_name":"Array"},"_values":[…]}`) that are objects. */
function values(v: unknown): Record<string, unknown>[] {
  const list = record(v)?.['_values'];
  return Array.isArray(list) ? list.map(record).filter((x): x is Record<string, unknown> => x !== null) : [];
}

/** `file:///…/Tests.swift#CharacterRangeLen=0&EndingLineNumber=43&StartingLineNumber=43` → file and line. */
function location(url: string | null): { file: string | null; line: string | null } {
  if (url === null) return { file: null, line: null };
  const [path, fragment = ''] = url.split('#', 2) as [string, string?];
  const line = /(?:^|&)StartingLineNumber=(\d+)/.exec(fragment)?.[1] ?? null;
  let file: string | null = path.replace(/^file:\/\//, '');
  try {
    file = decodeURIComponent(file);
  } catch {
    /* kept as written */
  }
  return { file: file || null, line };
}

/** A `Double` duration in seconds, written as a string. */
function duration(v: string | undefined): number | null {
  return v === undefined ? null : secondsToMs(Number(v));
}
