/** XML for formatters: the handler driven over text, illegal references repaired, names, handler errors. */
import t from 'tap';
import {
  IllegalReferenceFilter,
  localName,
  noRootError,
  parseXml,
  unclosedRootError,
  wrongRootError,
  type ContainerSink,
} from '../../../lib/formatter/api.js';

const sink: ContainerSink = { emit: () => undefined, ready: () => null };

async function* chunks(text: string, size: number): AsyncGenerator<string> {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

t.test('parseXml hands the handler its events, whatever the chunks', async (t) => {
  const xml = '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x "y">]><r a="1"><![CDATA[<c>]]>&amp;<e/></r>';
  for (const size of [1, 4, 1000]) {
    const seen: string[] = [];
    await parseXml(chunks(xml, size), sink, {
      open: (name, attrs) => void seen.push(`<${name} ${JSON.stringify(attrs)}>`),
      text: (text) => void seen.push(text),
      close: (name) => void seen.push(`</${name}>`),
    });
    t.same(seen.join(''), '<r {"a":"1"}><c>&<e {}></e></r>', `chunks of ${size}`);
  }
});

t.test('illegal references are repaired across every chunk boundary', async (t) => {
  const text = 'a&#27;b&#x1b;c&#65;d&amp;e&#0;';
  for (let size = 1; size <= text.length; size++) {
    const f = new IllegalReferenceFilter();
    let out = '';
    for (let i = 0; i < text.length; i += size) out += f.push(text.slice(i, i + size));
    out += f.end();
    t.equal(out, 'a\uFFFDb\uFFFDc&#65;d&amp;e\uFFFD', `chunks of ${size}`);
  }
});

t.test('localName', async (t) => {
  const cases: [string, string][] = [
    ['ns2:test-suite', 'test-suite'],
    ['testsuite', 'testsuite'],
    ['a:b:c', 'b:c'],
  ];
  for (const [name, want] of cases) t.equal(localName(name), want, name);
});

t.test('the errors of an XML handler', async (t) => {
  t.match(wrongRootError('<assembly>', '<testsuites>: this is not a JUnit XML file'), {
    name: 'FormatError',
    message:
      'The root element is <assembly>, not <testsuites>: this is not a JUnit XML file; choose the formatter for ' +
      'its format or let Tally detect it',
  });
  t.equal(
    noRootError('a TRX file').message,
    'The file has no XML root element (it is empty or holds only a prolog); send a TRX file',
  );
  t.equal(unclosedRootError().message, 'The file ends before its root element is closed; the report looks truncated');
});
