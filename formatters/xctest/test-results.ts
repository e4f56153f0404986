/**
 * Xcode 16+ `xcrun xcresulttool get test-results tests`: a tree of `testNodes`. xcresulttool sorts
 * each node's keys, so a node's `children` arrive before its `nodeType`: nothing is known of a node
 * until it closes. Its children have closed by then: a test case's repetitions, arguments and
 * failure messages are kept (small) until the case closes; test cases and suites are emitted as
 * they close, and a suite takes its id when its first child needs it.
 */
import {
  capText,
  erroredTest,
  newContainer,
  ownCopy,
  roundMs,
  secondsToMs,
  suiteStatus,
} from '../../lib/formatter/api.js';
import type { Attempt, ContainerStatus, Emit, FailureInfo, HandlerContext } from '../../lib/formatter/api.js';
import type { Property } from '../../lib/formatter/api.js';
import { isExpectedFailure, resultStatus, xcodeDuration } from './values.js';

/** Node types that group tests. Others under a test case (repetitions, arguments…) describe it. */
const GROUPS = new Set(['Test Plan', 'Unit test bundle', 'UI test bundle', 'Test Suite']);
/** Children of a test case that ran it once each: steps of the test. */
const RUNS = new Set(['Arguments', 'Device', 'Test Plan Configuration', 'Test Case Run']);
/** Children kept per node, and messages per test: a node is small, a hostile file is not. */
const MAX_DETAILS = 1000;

export interface TestNode {
  parent: TestNode | null;
  id: number | null;
  fields: Record<string, string>;
  tags: string[];
  details: Detail[];
  seen: Set<ContainerStatus>;
}

/** A child of a test case, reduced to what the test's container needs. */
interface Detail {
  type: string;
  name: string;
  result: string | null;
  durationMs: number | null;
  details: string | null;
  children: Detail[];
}

export class TestResultsTree {
  /** `deviceName (platform osVersion)` when the file ran on one device. */
  device: string | null = null;
  private readonly limit: number;

  constructor(
    private readonly ctx: HandlerContext,
    private readonly emit: Emit,
  ) {
    this.limit = ctx.limits.maxTextChars;
  }

  open(parent: TestNode | null): TestNode {
    return { parent, id: null, fields: {}, tags: [], details: [], seen: new Set() };
  }

  field(node: TestNode, key: string, value: unknown): void {
    if (typeof value === 'string') node.fields[key] = capText(value, this.limit);
    else if (typeof value === 'number' && Number.isFinite(value)) node.fields[key] = String(value);
    else if (key === 'tags' && Array.isArray(value))
      node.tags = value.filter((t): t is string => typeof t === 'string').slice(0, 100);
  }

  devices(value: unknown): void {
    if (!Array.isArray(value) || value.length !== 1) return;
    const d = value[0] as Record<string, unknown>;
    const name = typeof d['deviceName'] === 'string' ? d['deviceName'] : null;
    const os = [d['platform'], d['osVersion']].filter((x) => typeof x === 'string').join(' ');
    if (name) this.device = os ? `${name} (${os})` : name;
  }

  close(node: TestNode): void {
    const type = node.fields['nodeType'] ?? '';
    if (type === 'Test Case') this.testCase(node);
    else if (node.id !== null || GROUPS.has(type)) this.suite(node);
    else if (node.parent && node.parent.details.length < MAX_DETAILS) node.parent.details.push(detailOf(node));
  }

  private idOf(node: TestNode): number {
    return (node.id ??= this.ctx.nextId());
  }

  private testCase(node: TestNode): void {
    const parentId = node.parent ? this.idOf(node.parent) : null;
    const id = this.idOf(node);
    const f = node.fields;
    const reps = node.details.filter((d) => d.type === 'Repetition');
    const written = resultStatus(f['result']);
    const status =
      written ?? (reps.length > 0 ? (resultStatus(reps[reps.length - 1]!.result) ?? 'unknown') : 'unknown');
    const meta: Record<string, string> = {};
    if (f['nodeIdentifier']) meta['identifier'] = f['nodeIdentifier'];
    if (f['nodeIdentifierURL']) meta['url'] = f['nodeIdentifierURL'];
    if (f['details']) meta['details'] = f['details'];
    const messages = messagesOf(node.details);
    if (isExpectedFailure(f['result'])) meta['expectedFailure'] = messages[0] ?? 'true';
    let failure: FailureInfo | null = null;
    if (status === 'failed' || status === 'errored') {
      // The last failed run says why the test ended failed; else any message (of an argument, say).
      const lastFailed = [...reps].reverse().find((r) => resultStatus(r.result) === 'failed');
      const own = lastFailed ? messagesOf(lastFailed.children) : [];
      failure = this.failure(own.length > 0 ? own : messages, meta);
    } else if (status === 'skipped' && messages.length > 0)
      failure = { message: messages[0]!, type: null, stack: null };
    let durationMs = durationOf(f);
    if (durationMs === null && reps.some((r) => r.durationMs !== null))
      durationMs = roundMs(reps.reduce((sum, r) => sum + (r.durationMs ?? 0), 0));
    for (const d of node.details) if (RUNS.has(d.type)) this.step(d, id);
    const c = newContainer({
      id,
      parentId,
      type: 'test',
      title: f['name'] ?? f['nodeIdentifier'] ?? '(unnamed test)',
      status,
      durationMs,
      failure,
      properties: node.tags.map((value): Property => ({ name: 'tag', value })),
      meta,
    });
    if (reps.length > 1) {
      const attempts: Attempt[] = reps.map((r) => ({
        status: resultStatus(r.result) ?? 'unknown',
        durationMs: r.durationMs,
        failure: this.failure(messagesOf(r.children), {}),
      }));
      c.attempts = attempts;
      const earlier = attempts.slice(0, -1);
      c.flaky = status === 'passed' && earlier.some((a) => a.status === 'failed' || a.status === 'errored');
    }
    node.parent?.seen.add(status);
    this.emit(c);
  }

  /** A run of a parameterised test (its arguments), or of a test on one of several devices. */
  private step(d: Detail, parentId: number): void {
    const reps = d.children.filter((c) => c.type === 'Repetition');
    const status = resultStatus(d.result) ?? (reps.length > 0 ? resultStatus(reps[reps.length - 1]!.result) : null);
    const meta: Record<string, string> = { nodeType: d.type };
    if (d.details) meta['details'] = d.details;
    const failed = status === 'failed' || status === 'errored';
    const durationMs =
      d.durationMs ?? (reps.length > 0 ? roundMs(reps.reduce((sum, r) => sum + (r.durationMs ?? 0), 0)) : null);
    this.emit(
      newContainer({
        id: this.ctx.nextId(),
        parentId,
        type: 'step',
        title: d.name || d.type,
        status: status ?? 'unknown',
        durationMs,
        failure: failed ? this.failure(messagesOf(d.children), meta) : null,
        meta,
      }),
    );
  }

  private suite(node: TestNode): void {
    const parentId = node.parent ? this.idOf(node.parent) : null;
    const id = this.idOf(node);
    const f = node.fields;
    const title = f['name'] ?? f['nodeIdentifier'] ?? f['nodeType'] ?? '(unnamed suite)';
    const messages = messagesOf(node.details);
    if (messages.length > 0) {
      // Counting rule 4: a failure of the suite itself (a class-level setUp) is one errored test.
      const failure = this.failure(messages, {});
      const meta = { synthetic: 'suite-error' };
      this.emit(
        erroredTest({ id: this.ctx.nextId(), parentId: id, title: `${title} (outside a test)`, failure, meta }),
      );
      node.seen.add('errored');
    }
    const status = node.seen.size > 0 ? suiteStatus(node.seen) : (resultStatus(f['result']) ?? 'passed');
    const meta: Record<string, string> = {};
    if (f['nodeType']) meta['nodeType'] = f['nodeType'];
    if (f['nodeIdentifier']) meta['identifier'] = f['nodeIdentifier'];
    if (f['nodeIdentifierURL']) meta['url'] = f['nodeIdentifierURL'];
    if (parentId === null && this.device) meta['device'] = this.device;
    node.parent?.seen.add(status);
    this.emit(newContainer({ id, parentId, type: 'suite', title, status, durationMs: durationOf(f), meta }));
  }

  /**
   * Failure messages (`File.swift:21: failed - Expected 5.0 but got 6.0`) → the failure: the first
   * is the message, all of them the stack; the first's `file:line` goes to `meta.location`.
   */
  private failure(messages: string[], meta: Record<string, string>): FailureInfo | null {
    if (messages.length === 0) return null;
    const first = messages[0]!;
    const at = /^([^\s:]+\.\w+:\d+): /.exec(first);
    if (at) meta['location'] ??= at[1]!;
    return {
      message: capText(first, this.limit),
      type: null,
      stack: messages.length > 1 ? capText(messages.join('\n'), this.limit) : null,
    };
  }
}

function detailOf(node: TestNode): Detail {
  const f = node.fields;
  return {
    type: ownCopy(f['nodeType'] ?? ''),
    name: f['name'] ?? '',
    result: f['result'] ?? null,
    durationMs: durationOf(f),
    details: f['details'] ?? null,
    children: node.details,
  };
}

/** `durationInSeconds` (Xcode 16.3+), else the duration written for people. */
function durationOf(f: Record<string, string>): number | null {
  const seconds = f['durationInSeconds'];
  if (seconds !== undefined) return secondsToMs(Number(seconds));
  return xcodeDuration(f['duration']);
}

/** The distinct failure messages below some details, in order. */
function messagesOf(details: Detail[]): string[] {
  const out: string[] = [];
  const walk = (ds: Detail[]): void => {
    for (const d of ds) {
      if (d.type === 'Failure Message') {
        if (d.name && !out.includes(d.name) && out.length < MAX_DETAILS) out.push(d.name);
      } else walk(d.children);
    }
  };
  walk(details);
  return out;
}
