/** The file assembler's duplicate-title check: same type and title under one parent, per file. */
import t from 'tap';
import { FileAssembler } from '../../../lib/import/assemble/assembler.js';
import type { Container } from '../../../lib/formatter/api.js';
import type { StoredContainer } from '../../../lib/store/types.js';

function node(id: number, parentId: number | null, type: Container['type'], title: string): Container {
  return {
    id,
    parentId,
    type,
    title,
    status: 'passed',
    durationMs: null,
    startedAt: null,
    failure: null,
    output: null,
    properties: [],
    attachmentRefs: [],
  } as unknown as Container;
}

t.test('duplicates are siblings with one type and title; a closed parent forgets its children', async (t) => {
  const out: StoredContainer[] = [];
  const a = new FileAssembler('r', 0, { push: (c) => out.push(c), ready: () => null }, [], () => undefined);
  // Emitted as a formatter closes them: children first.
  a.emit(node(2, 1, 'test', 'adds'));
  a.emit(node(3, 1, 'test', 'adds'));
  a.emit(node(4, 1, 'suite', 'adds'));
  a.emit(node(1, null, 'suite', 'Calc'));
  a.emit(node(6, 5, 'test', 'adds'));
  a.emit(node(5, null, 'suite', 'Other'));
  a.emit(node(8, 7, 'test', 'adds'));
  a.emit(node(7, null, 'suite', 'Calc'));
  t.equal(a.duplicateCount, 2, 'the second test "adds" under Calc, and the second top-level suite Calc');
  t.strictSame(a.duplicates, ['adds', 'Calc']);
  t.equal(out.length, 8, 'every container still goes on');
  t.equal((a as unknown as { seen: Map<number, unknown> }).seen.size, 1, 'only the top level is still open');
});

t.test('many suites one after another: memory follows the open ones', async (t) => {
  const a = new FileAssembler('r', 0, { push: () => undefined, ready: () => null }, [], () => undefined);
  let id = 0;
  for (let s = 0; s < 2000; s++) {
    const suite = ++id;
    for (let i = 0; i < 50; i++) a.emit(node(++id, suite, 'test', `t${i}`));
    a.emit(node(suite, null, 'suite', `S${s}`));
  }
  t.equal(a.duplicateCount, 0);
  t.equal((a as unknown as { seen: Map<number, unknown> }).seen.size, 1);
});
