/**
 * The Dart JSON reporter state machine: one event (one JSON line) at a time in, containers out.
 * Tests interleave across suites, so tests in flight are keyed by `testID` and dropped at their
 * `testDone`. The reporter never says when a suite or group ends, so those stay open (one small
 * record each, no tests) until `done` or the end of the stream, and are emitted then, deepest first.
 */
import { asNumber as num, asRecord as record, asString as str, capText as cap } from '../../lib/formatter/api.js';
import { FormatError, newContainer, suiteStatus, TextBuffer } from '../../lib/formatter/api.js';
import type { ContainerStatus, Emit, FailureInfo, HandlerContext, JsonMachine } from '../../lib/formatter/api.js';

/** A suite or a named group: a container whose end the reporter never announces. */
interface Node {
  id: number;
  parentId: number | null;
  title: string;
  /** The reporter's full name (groups repeat their parents' names), to shorten children's titles. */
  fullName: string;
  meta: Record<string, string>;
  seen: Set<ContainerStatus>;
}

interface OpenTest {
  name: string;
  parent: Node | null;
  startTime: number | null;
  meta: Record<string, string>;
  stdout: TextBuffer | null;
  errors: { message: string; stack: string | null; isFailure: boolean }[];
  skipReason: string | null;
}

type Event = Record<string, unknown>;

const RESULTS = new Map<string, ContainerStatus>([
  ['success', 'passed'],
  ['failure', 'failed'],
  ['error', 'errored'],
]);

export function dartHandler(ctx: HandlerContext, emit: Emit): JsonMachine {
  const limit = ctx.limits.maxTextChars;
  const suites = new Map<number, Node>();
  const groups = new Map<number, Node | null>();
  /** Suites and groups in opening order: reversed, children come before their parents. */
  const nodes: Node[] = [];
  const byId = new Map<number, Node>();
  const running = new Map<number, OpenTest>();
  let dartEvents = 0;
  let finished = false;
  let producer: string | null = null;

  const guessProducer = (name: string): void => {
    if (producer !== null) return;
    producer = name;
    ctx.setProducer(name);
  };

  const open = (parent: Node | null, title: string, fullName: string, meta: Record<string, string>): Node => {
    const node: Node = {
      id: ctx.nextId(),
      parentId: parent ? parent.id : null,
      title,
      fullName,
      meta,
      seen: new Set(),
    };
    nodes.push(node);
    byId.set(node.id, node);
    return node;
  };

  const onSuite = (e: Event): void => {
    const s = record(e['suite']);
    const id = num(s?.['id']);
    if (!s || id === null || suites.has(id)) return;
    const file = str(s['path']);
    const meta: Record<string, string> = {};
    if (file) meta['file'] = file;
    const platform = str(s['platform']);
    if (platform) meta['platform'] = platform;
    suites.set(id, open(null, file ?? `suite ${id}`, '', meta));
  };

  const onGroup = (e: Event): void => {
    const g = record(e['group']);
    const id = num(g?.['id']);
    if (!g || id === null || groups.has(id)) return;
    const parentGroup = num(g['parentID']);
    const parent =
      (parentGroup !== null ? groups.get(parentGroup) : undefined) ?? suites.get(num(g['suiteID']) ?? -1) ?? null;
    const name = str(g['name']);
    // The root group of each file has no name: it is the suite itself, not a level of its own.
    if (!name) {
      groups.set(id, parent);
      return;
    }
    const meta = location(g);
    groups.set(id, open(parent, shorten(name, parent), name, meta));
  };

  const onTestStart = (e: Event): void => {
    const test = record(e['test']);
    const id = num(test?.['id']);
    if (!test || id === null) return;
    const groupIds = Array.isArray(test['groupIDs']) ? test['groupIDs'] : [];
    const last = num(groupIds[groupIds.length - 1]);
    const parent = (last !== null ? groups.get(last) : undefined) ?? suites.get(num(test['suiteID']) ?? -1) ?? null;
    const meta = location(test);
    const url = str(test['url']);
    if (url?.startsWith('package:flutter_test/')) guessProducer('flutter-test');
    else if (meta['file']) guessProducer('dart-test');
    const name = str(test['name']) ?? `test ${id}`;
    const metadata = record(test['metadata']);
    running.set(id, {
      name,
      parent,
      startTime: num(e['time']),
      meta,
      stdout: null,
      errors: [],
      skipReason: str(metadata?.['skipReason']),
    });
  };

  const onPrint = (e: Event): void => {
    const test = running.get(num(e['testID']) ?? -1);
    const message = str(e['message']);
    if (!test || message === null) return;
    // `skip` prints carry the skip reason ("Skip: why"); the metadata may not have it (skip() at run time).
    if (e['messageType'] === 'skip') {
      test.skipReason ??= message.replace(/^Skip:\s*/, '');
      return;
    }
    test.stdout ??= new TextBuffer(limit);
    test.stdout.append(message);
    test.stdout.append('\n');
  };

  const onError = (e: Event): void => {
    const test = running.get(num(e['testID']) ?? -1);
    if (!test) return;
    // Several errors can hit one test (an async error after the first); keep a few, not all.
    if (test.errors.length >= 20) return;
    test.errors.push({
      message: cap(str(e['error']) ?? '', limit),
      stack: str(e['stackTrace']) ? cap(str(e['stackTrace'])!, limit) : null,
      isFailure: e['isFailure'] === true,
    });
  };

  const finishTest = (test: OpenTest, status: ContainerStatus, endTime: number | null, unfinished: boolean): void => {
    const meta = { ...test.meta };
    const title = shorten(test.name, test.parent);
    if (title !== test.name) meta['fullName'] = test.name;
    let failure: FailureInfo | null = null;
    if (unfinished) {
      failure = { message: 'The test started but the stream ended before its testDone event', type: null, stack: null };
    } else if (test.errors.length > 0) {
      failure = {
        message: cap(test.errors.map((x) => x.message.trim()).join('\n\n'), limit),
        type: null,
        stack: test.errors[0]!.stack?.trim() || null,
      };
    } else if (status === 'skipped' && test.skipReason) {
      failure = { message: test.skipReason, type: null, stack: null };
    }
    const duration =
      test.startTime !== null && endTime !== null && endTime >= test.startTime ? endTime - test.startTime : null;
    const stdout = test.stdout && !test.stdout.empty ? test.stdout.value() : null;
    test.parent?.seen.add(status);
    const parentId = test.parent ? test.parent.id : null;
    emit(
      newContainer({
        id: ctx.nextId(),
        parentId,
        type: 'test',
        title,
        status,
        durationMs: duration,
        failure,
        stdout,
        meta,
      }),
    );
  };

  const onTestDone = (e: Event): void => {
    const id = num(e['testID']) ?? -1;
    const test = running.get(id);
    if (!test) return;
    running.delete(id);
    // Hidden tests are the reporter's own bookkeeping ("loading x.dart", passing setUpAll): not tests.
    if (e['hidden'] === true) return;
    const result = str(e['result']) ?? '';
    const status: ContainerStatus = e['skipped'] === true ? 'skipped' : (RESULTS.get(result) ?? 'unknown');
    if (status === 'unknown' && result) test.meta['result'] = result;
    finishTest(test, status, num(e['time']), false);
  };

  const event = (raw: unknown): void => {
    const e = record(raw);
    // flutter --machine interleaves daemon events as `[{"event": …}]` lines: not the test protocol.
    if (!e || finished) return;
    switch (e['type']) {
      case 'start':
        dartEvents++;
        return;
      case 'suite':
        dartEvents++;
        return onSuite(e);
      case 'group':
        dartEvents++;
        return onGroup(e);
      case 'testStart':
        dartEvents++;
        return onTestStart(e);
      case 'print':
        return onPrint(e);
      case 'error':
        return onError(e);
      case 'testDone':
        dartEvents++;
        return onTestDone(e);
      case 'done':
        dartEvents++;
        close();
        return;
      case 'allSuites':
      case 'debug':
        dartEvents++;
        return;
    }
  };

  const close = (): void => {
    if (finished) return;
    finished = true;
    // Counting rule: a test that started and never got its testDone is errored.
    for (const test of running.values()) finishTest(test, 'errored', null, true);
    running.clear();
    for (let i = nodes.length - 1; i >= 0; i--) {
      const node = nodes[i]!;
      const status = suiteStatus(node.seen);
      if (node.parentId !== null) byId.get(node.parentId)?.seen.add(status);
      const { id, parentId, title, meta } = node;
      emit(newContainer({ id, parentId, type: 'suite', title, status, meta }));
    }
  };

  return {
    open(path) {
      // Each line is one small event: take it whole.
      return path.length === 1;
    },
    value(path, v) {
      if (path.length === 1) event(v);
    },
    end() {
      if (dartEvents === 0)
        throw new FormatError(
          'No Dart test event (`"type": "start" | "suite" | "testStart" | …`) found: this is not the output of ' +
            '`dart test --reporter json` or `flutter test --machine`',
        );
      close();
      guessProducer('dart-test');
    },
  };
}

/** Dart test and group names repeat their enclosing group's name; the container tree already says it. */
function shorten(name: string, parent: Node | null): string {
  const prefix = parent?.fullName;
  if (prefix && name.length > prefix.length + 1 && name.startsWith(`${prefix} `)) return name.slice(prefix.length + 1);
  return name;
}

/** flutter_test reports `url` inside its own package and the test's place as `root_url`/`root_line`. */
function location(x: Record<string, unknown>): Record<string, string> {
  const meta: Record<string, string> = {};
  const url = str(x['root_url']) ?? str(x['url']);
  const line = num(x['root_line']) ?? num(x['line']);
  const column = num(x['root_column']) ?? num(x['column']);
  if (url) meta['file'] = url;
  if (line !== null) meta['line'] = String(line);
  if (column !== null) meta['column'] = String(column);
  return meta;
}
