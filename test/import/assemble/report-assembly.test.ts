/**
 * The report assembly (lib/import/assemble/report-assembly.ts): files taken in turn add up to the
 * report's totals, earliest start and file list; texts cut at the limit make one notice.
 */
import t from 'tap';
import { zeroTotals } from '../../../lib/import/assemble/assembler.js';
import { ReportAssembly, type FileOutcome } from '../../../lib/import/assemble/report-assembly.js';
import { reportStore } from '../../helpers/report-store.js';

function outcome(o: Partial<FileOutcome> & { tests?: number; passed?: number }): FileOutcome {
  const totals = { ...zeroTotals(), tests: o.tests ?? 0, passed: o.passed ?? 0, containers: o.tests ?? 0 };
  return {
    totals,
    earliest: null,
    duplicates: [],
    duplicateCount: 0,
    truncated: 0,
    producer: null,
    noTests: false,
    ...o,
  };
}

t.test('files add up in their turn', async (t) => {
  const { store } = await reportStore(t);
  let ticks = 0;
  const a = new ReportAssembly(store, () => ticks++);
  t.equal(a.nextIndex, 0);
  a.add('a.xml', 'junit', a.nextIndex, outcome({ tests: 3, passed: 3, earliest: '2025-01-02T00:00:00.000Z' }));
  a.add('b.xml', 'junit', a.nextIndex, outcome({ tests: 0, producer: 'pytest' }));
  a.add('c.xml', 'xunit', a.nextIndex, outcome({ tests: 0, noTests: true, earliest: '2025-01-01T00:00:00.000Z' }));
  a.counted(5);
  t.equal(ticks, 1, 'counting containers is progress');
  t.equal(a.containers, 5);
  t.match(a.totals, { tests: 3, passed: 3, containers: 3 });
  t.equal(a.earliest, '2025-01-01T00:00:00.000Z', 'the earliest start of any file');
  t.strictSame(
    a.parsed.map((f) => [f.index, f.name, f.formatter, f.producer, f.tests, f.empty]),
    [
      [0, 'a.xml', 'junit', null, 3, false],
      [1, 'b.xml', 'junit', 'pytest', 0, true],
      [2, 'c.xml', 'xunit', null, 0, false],
    ],
    'a file without tests is empty unless its formatter declared it has none',
  );
});

t.test('texts cut at the limit: one notice for all files', async (t) => {
  const { store } = await reportStore(t);
  const a = new ReportAssembly(store, () => undefined);
  t.equal(a.truncatedNotice(100), null, 'none cut, no notice');
  a.add('a.xml', 'junit', 0, outcome({ truncated: 1 }));
  t.match(a.truncatedNotice(100), {
    code: 'text_truncated',
    message: /1 container in 1 file had output or failure text over 100 characters; the first 100 were kept\.$/,
    details: { limit: 100, containers: 1, files: [{ file: 'a.xml', containers: 1 }] },
  });
  a.add('b.xml', 'junit', 1, outcome({ truncated: 2 }));
  t.match(a.truncatedNotice(100), {
    message: /3 containers in 2 files had output or failure text over 100 characters; the first 100 were kept\.$/,
  });
});
