/**
 * The JSON that `xcrun xcresulttool` writes, streamed: a frame per open node of the test tree, one
 * JSON value after another (a record and its tests in one file). Xcode 16+ `get test-results tests`
 * (test-results.ts) and the legacy typed objects (legacy.ts) each build their containers; this
 * module only tells where in the tree each event is. Values outside the tree are taken whole (a
 * device list, a wrapped string, a record's issues); the tree's arrays are streamed.
 */
import { FormatError } from '../../lib/formatter/api.js';
import type { Emit, HandlerContext, JsonMachine, JsonPath } from '../../lib/formatter/api.js';
import { LegacyTree, type LegacyNode } from './legacy.js';
import { TestResultsTree, type TestNode } from './test-results.js';

/** The counts of `get test-results summary`, named in its refusal. */
const SUMMARY_COUNTS = ['totalTestCount', 'passedTests', 'failedTests', 'skippedTests'];
/** The keys whose wrapped arrays hold the legacy tree's nodes. */
const LEGACY_TREE_KEYS = new Set(['summaries', 'testableSummaries', 'tests', 'subtests']);

type Frame =
  /** One JSON value of the file (its path has length 1: the value's index). */
  | { kind: 'document'; len: number; legacy: LegacyNode }
  | { kind: 'node'; len: number; node: TestNode }
  /** A legacy wrapped array (`{"_type":…,"_values":[…]}`) of tree nodes, under `owner`. */
  | { kind: 'list'; len: number; owner: LegacyNode }
  | { kind: 'legacy'; len: number; node: LegacyNode };

export function xcresultHandler(ctx: HandlerContext, emit: Emit): JsonMachine {
  const tests = new TestResultsTree(ctx, emit);
  const legacy = new LegacyTree(ctx, emit);
  const frames: Frame[] = [];
  let sawTestNodes = false;
  let sawLegacy = false;
  /** Counts of `xcresulttool get test-results summary`, which names no passed test. */
  const summary: Record<string, number> = {};
  let producer = false;

  const top = (): Frame | undefined => frames[frames.length - 1];
  const produced = (): void => {
    if (producer) return;
    producer = true;
    ctx.setProducer('xcresulttool');
  };

  return {
    open(path: JsonPath, kind) {
      const t = top();
      if (path.length === 1) {
        if (kind !== 'object')
          throw new FormatError(
            'The JSON is an array: xcresulttool writes an object (`testNodes`, or a typed `_type`)',
          );
        frames.push({ kind: 'document', len: 1, legacy: legacy.open(null) });
        return false;
      }
      if (!t) return true;
      const key = path[t.len];
      if (path.length === t.len + 1) {
        // A field of the open object.
        if (t.kind === 'document' && key === 'testNodes' && kind === 'array') {
          sawTestNodes = true;
          produced();
          return false;
        }
        if (t.kind === 'node' && key === 'children' && kind === 'array') return false;
        if (t.kind === 'list' && key === '_values' && kind === 'array') return false;
        if ((t.kind === 'document' || t.kind === 'legacy') && LEGACY_TREE_KEYS.has(String(key)) && kind === 'object') {
          frames.push({ kind: 'list', len: path.length, owner: t.kind === 'document' ? t.legacy : t.node });
          return false;
        }
        return true;
      }
      if (path.length === t.len + 2 && kind === 'object') {
        // An element of a streamed array: a node of one of the trees.
        if (t.kind === 'document' && key === 'testNodes') {
          frames.push({ kind: 'node', len: path.length, node: tests.open(null) });
          return false;
        }
        if (t.kind === 'node' && key === 'children') {
          frames.push({ kind: 'node', len: path.length, node: tests.open(t.node) });
          return false;
        }
        if (t.kind === 'list' && key === '_values') {
          sawLegacy = true;
          produced();
          frames.push({ kind: 'legacy', len: path.length, node: legacy.open(t.owner) });
          return false;
        }
      }
      return true;
    },
    value(path, v) {
      const t = top();
      if (!t || path.length !== t.len + 1) {
        if (path.length === 1) throw new FormatError('The JSON is not an object: xcresulttool writes objects');
        return;
      }
      const key = String(path[t.len]);
      switch (t.kind) {
        case 'document':
          if (key === 'devices') tests.devices(v);
          if (SUMMARY_COUNTS.includes(key) && typeof v === 'number') summary[key] = v;
          if (key === '_type') {
            sawLegacy = true;
            produced();
          }
          legacy.field(t.legacy, key, v);
          return;
        case 'node':
          tests.field(t.node, key, v);
          return;
        case 'legacy':
          legacy.field(t.node, key, v);
          return;
        case 'list':
          return;
      }
    },
    close(path, kind) {
      const t = top();
      if (!t || kind !== 'object' || path.length !== t.len) return;
      frames.pop();
      if (t.kind === 'node') tests.close(t.node);
      else if (t.kind === 'legacy' || t.kind === 'document') legacy.close(t.kind === 'legacy' ? t.node : t.legacy);
    },
    end() {
      if (sawLegacy) legacy.end();
      else if (!sawTestNodes && summary['totalTestCount'] !== undefined)
        throw new FormatError(
          `The file is \`xcresulttool get test-results summary\`, which gives its ${summary['totalTestCount']} tests ` +
            `(${summary['failedTests'] ?? 0} failed, ${summary['skippedTests'] ?? 0} skipped) only as counts. Send ` +
            'the tests: `xcrun xcresulttool get test-results tests --path R.xcresult`',
        );
      else if (!sawTestNodes)
        throw new FormatError(
          'The JSON is not xcresulttool output: it has neither `testNodes` (`xcresulttool get test-results tests`) ' +
            'nor the typed objects of `xcresulttool get --format json`',
        );
    },
  };
}
