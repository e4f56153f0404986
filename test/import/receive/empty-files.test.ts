/** file[] parts of 0 bytes (lib/import/receive/empty-files.ts): named in the fault or the warning. */
import t from 'tap';
import { emptyFilesFault, emptyFilesSkipped, emptyPartName } from '../../../lib/import/receive/empty-files.js';

t.test('emptyPartName: the base name of the file, or the field when it has none', async (t) => {
  t.equal(emptyPartName('file[]', 'empty.xml'), 'empty.xml');
  t.equal(emptyPartName('file[]', 'C:\\ci\\out\\empty.xml'), 'empty.xml');
  t.equal(emptyPartName('files[]', 'out/empty.xml'), 'empty.xml');
  t.equal(emptyPartName('file[]', undefined), 'file[] (a part without a file name)');
  t.equal(emptyPartName('file', ''), 'file (a part without a file name)');
});

t.test('every part empty: an error naming them', async (t) => {
  const f = emptyFilesFault(['empty.xml', 'b.xml']);
  t.match(f.msg, {
    severity: 'error',
    code: 'empty_result_file',
    file: 'empty.xml',
    details: { files: ['empty.xml', 'b.xml'] },
  });
  t.match(f.msg.message, /is empty \(0 bytes\).*Check that the test run wrote.*Empty: empty\.xml, b\.xml\.$/s);
});

t.test('some parts empty: a warning naming them; a long list is cut', async (t) => {
  const names = Array.from({ length: 25 }, (_, i) => `r${i}.xml`);
  const m = emptyFilesSkipped(names);
  t.match(m, { severity: 'warning', code: 'empty_result_file_skipped', file: 'r0.xml' });
  t.equal((m.details!.files as string[]).length, 25);
  t.match(m.message, /Empty: r0\.xml, .*, r19\.xml, …\.$/);
  t.notMatch(m.message, /r20\.xml/);
});
