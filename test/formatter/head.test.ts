import t from 'tap';
import { readHead, baseName } from '../../lib/formatter/head.js';

t.test('xml head: root, attributes, children, declaration', async (t) => {
  const { head } = readHead(
    Buffer.from('<?xml version="1.0"?>\n<!-- c --><testsuites name="x"><testsuite tests="1"><testcase/>'),
    'a/b.xml',
    false,
  );
  t.equal(head.kind, 'xml');
  t.equal(head.hasXmlDeclaration, true);
  t.equal(head.rootElement, 'testsuites');
  t.same(head.rootAttributes, { name: 'x' });
  t.same(head.childElements, ['testsuite', 'testcase']);
  t.equal(head.extension, '.xml');
});

t.test('utf-16 with BOM is decoded', async (t) => {
  const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<TestRun id="1">', 'utf16le')]);
  const { head, encoding } = readHead(bytes, 'r.trx', true);
  t.equal(encoding.encoding, 'utf16le');
  t.equal(head.rootElement, 'TestRun');
});

t.test('json top-level keys of a cut-off head', async (t) => {
  const { head } = readHead(Buffer.from('{"stats": {"a": 1, "b": [1,2]}, "results": [{"x": "'), 'r.json', false);
  t.equal(head.kind, 'json');
  t.same(head.topLevelKeys, ['stats', 'results']);
});

t.test('binary and windows paths', async (t) => {
  t.equal(readHead(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]), 'x.png', true).head.kind, 'binary');
  t.equal(baseName('C:\\a\\b\\results.xml'), 'results.xml');
});
