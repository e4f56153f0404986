import t from 'tap';
import { FormatError, type Container } from '../../lib/formatter/api.js';
import { totalsOf } from '../../lib/formatter/check.js';
import { byTitle, childrenFirst, driveHandler, feedXml } from '../../test/helpers/formatter-fixtures.js';
import { formatterChecks, formatterFixtures, type XmlEvent } from '../../test/helpers/formatter-fixtures.js';
import { zaproxy } from './index.js';
import { zaproxyHandler } from './parse.js';
import { alertStatus, plainText } from './values.js';

const fx = formatterFixtures(zaproxy, import.meta.url);

formatterChecks(fx, {
  fixtureScore: 0.9,
  eachFixture: (t, { containers }, name) => t.ok(childrenFirst(containers), `${name}: children before parents`),
  chunks: { eachInChunksOf: 7 },
});

function drive(events: XmlEvent[], maxTextChars = 1000): Container[] {
  return driveHandler(zaproxyHandler, 'Report.xml', maxTextChars, (h) => feedXml(h, events)).out;
}

/** `<name>text</name>`. */
const el = (name: string, text: string): XmlEvent[] => [
  ['open', name],
  ['text', text],
  ['close', name],
];

function alertItem(fields: Record<string, string>, instances: Record<string, string>[] | null): XmlEvent[] {
  const inner = Object.entries(fields).flatMap(([k, v]) => el(k, v));
  const list: XmlEvent[] =
    instances === null
      ? []
      : [
          ['open', 'instances'],
          ...instances.flatMap((i): XmlEvent[] => [
            ['open', 'instance'],
            ...Object.entries(i).flatMap(([k, v]) => el(k, v)),
            ['close', 'instance'],
          ]),
          ['close', 'instances'],
        ];
  return [['open', 'alertitem'], ...inner, ...list, ['close', 'alertitem']];
}

function report(sites: [name: string, alerts: XmlEvent[]][]): XmlEvent[] {
  return [
    ['open', 'OWASPZAPReport', { version: '2.10.0', generated: 'Mon, 26 Apr 2021 07:03:32' }],
    ...sites.flatMap(([name, alerts]): XmlEvent[] => [
      ['open', 'site', { name, host: 'example.com', port: '443', ssl: 'true' }],
      ['open', 'alerts'],
      ...alerts,
      ['close', 'alerts'],
      ['close', 'site'],
    ]),
    ['close', 'OWASPZAPReport'],
  ];
}

t.test('status: High and Medium fail, Low and Informational pass, a false positive is skipped', async (t) => {
  const table: [string | null, string | null, string][] = [
    ['3', '2', 'failed'],
    ['2', '1', 'failed'],
    ['2', '4', 'failed'],
    ['1', '3', 'passed'],
    ['0', '2', 'passed'],
    ['3', '0', 'skipped'],
    ['0', '0', 'skipped'],
    ['4', '2', 'unknown'],
    [null, '2', 'unknown'],
    ['High', '2', 'unknown'],
  ];
  for (const [risk, confidence, want] of table) t.equal(alertStatus(risk, confidence), want, `${risk}/${confidence}`);
});

t.test('text fields: HTML paragraphs become lines, plain text stays', async (t) => {
  t.equal(plainText('<p>One &lt;script&gt;</p><p>Two &amp; three</p>'), 'One <script>\nTwo & three');
  t.equal(plainText('  plain <b>text</b> &amp; more \n'), 'plain <b>text</b> &amp; more');
});

t.test('a merged alert: test with its instances as steps, status, failure, properties, report text', async (t) => {
  const out = drive(
    report([
      [
        'https://example.com',
        alertItem(
          {
            pluginid: '10020',
            alertRef: '10020-1',
            alert: 'X-Frame-Options Header Not Set',
            name: 'X-Frame-Options Header Not Set',
            riskcode: '2',
            confidence: '3',
            riskdesc: 'Mittel (Hoch)',
            desc: '<p>No header.</p>',
            count: '3',
            solution: '<p>Set it.</p>',
            reference: '<p>https://a</p><p>https://b</p>',
            cweid: '1021',
            wascid: '-1',
          },
          [
            { uri: 'https://example.com/', method: 'GET', param: 'X-Frame-Options', evidence: '' },
            { uri: 'https://example.com/', method: 'GET', param: 'X-Frame-Options' },
          ],
        ),
      ],
    ]),
  );
  t.same(
    out.map((c) => [c.type, c.title, c.status]),
    [
      ['step', 'GET https://example.com/ (X-Frame-Options)', 'failed'],
      ['step', 'GET https://example.com/ (X-Frame-Options) #2', 'failed'],
      ['test', 'X-Frame-Options Header Not Set', 'failed'],
      ['suite', 'https://example.com', 'failed'],
    ],
  );
  const alert = byTitle(out, 'X-Frame-Options Header Not Set');
  t.same(alert.failure, { message: 'Medium risk, High confidence: 3 instances', type: 'Medium', stack: null });
  t.same(alert.properties, [
    { name: 'risk', value: 'Medium' },
    { name: 'confidence', value: 'High' },
    { name: 'instances', value: '3' },
    { name: 'CWE', value: 'CWE-1021' },
    { name: 'plugin', value: '10020' },
  ]);
  t.equal(alert.output?.stdout, 'Description\nNo header.\n\nSolution\nSet it.\n\nReferences\nhttps://a\nhttps://b');
  t.match(alert.meta, { pluginid: '10020', alertRef: '10020-1', riskcode: '2', confidence: '3', count: '3' });
  t.same(out[0]!.properties, [
    { name: 'method', value: 'GET' },
    { name: 'uri', value: 'https://example.com/' },
    { name: 'param', value: 'X-Frame-Options' },
  ]);
  t.equal(out[0]!.parentId, alert.id);
  const site = byTitle(out, 'https://example.com');
  t.match(site.meta, { host: 'example.com', port: '443', ssl: 'true', zapVersion: '2.10.0' });
  t.equal(site.startedAt, '2021-04-26T07:03:32.000Z');
  t.equal(site.startedAtNaive, true, '`generated` has no zone');
});

t.test('one name twice in a site (another confidence) gets a second title; a false positive is skipped', async (t) => {
  const item = (confidence: string): XmlEvent[] =>
    alertItem({ pluginid: '10027', name: 'Suspicious Comments', riskcode: '0', confidence }, []);
  const out = drive(report([['http://a', [...item('2'), ...item('1'), ...item('0')]]]));
  t.same(
    out.filter((c) => c.type === 'test').map((c) => [c.title, c.status]),
    [
      ['Suspicious Comments', 'passed'],
      ['Suspicious Comments (Informational risk, Low confidence)', 'passed'],
      ['Suspicious Comments (Informational risk, False Positive confidence)', 'skipped'],
    ],
  );
  t.same(out[2]!.failure, { message: 'Marked as a false positive', type: null, stack: null });
  t.equal(out[3]!.status, 'passed', 'the site: its worst alert');
});

t.test('unmerged items (ZAP 2.4) are grouped per alert, wherever they stand in the site', async (t) => {
  const flat = (name: string, risk: string, uri: string): XmlEvent[] =>
    alertItem(
      { pluginid: risk === '3' ? '40018' : '10010', alert: name, riskcode: risk, confidence: '2', uri, param: 'q' },
      null,
    );
  const out = drive(
    report([
      [
        'http://localhost:8080',
        [
          ...flat('SQL Injection', '3', 'http://x/a'),
          ...flat('Cookie', '1', 'http://x/b'),
          ...flat('SQL Injection', '3', 'http://x/c'),
        ],
      ],
    ]),
  );
  t.same(totalsOf(out), { tests: 2, passed: 1, failed: 1, errored: 0, skipped: 0 });
  const sql = byTitle(out, 'SQL Injection');
  t.same(
    out.filter((c) => c.parentId === sql.id).map((c) => c.title),
    ['http://x/a (q)', 'http://x/c (q)'],
  );
  t.match(sql.properties, [{ name: 'risk', value: 'High' }, { name: 'confidence' }, { name: 'instances', value: '2' }]);
  t.ok(childrenFirst(out));
  t.equal(new Set(out.map((c) => c.id)).size, out.length, 'ids are unique');
});

t.test('a site without alerts is one passed "No alerts" test; a report without sites has none', async (t) => {
  const out = drive(report([['http://clean', []]]));
  t.same(
    out.map((c) => [c.type, c.title, c.status, c.meta?.synthetic]),
    [
      ['test', 'No alerts', 'passed', 'no-alerts'],
      ['suite', 'http://clean', 'passed', undefined],
    ],
  );
  t.same(drive(report([])), []);
});

t.test('another root, no root, an unclosed root: FormatError', async (t) => {
  t.throws(() => drive([['open', 'testsuite', {}]]), FormatError);
  t.throws(() => drive([]), FormatError);
  t.throws(() => drive([['open', 'OWASPZAPReport', {}]]), FormatError);
});

t.test('the baseline report: 19 alerts, the 4 Medium ones failed, instances as steps', async (t) => {
  const name = 'zap-weekly-D-2021-03-29-baseline-dvwa.xml';
  const { containers } = await fx.run(fx.read(name), name);
  const failed = containers.filter((c) => c.type === 'test' && c.status === 'failed').map((c) => c.title);
  t.same(failed.sort(), [
    'CSP: Wildcard Directive',
    'Content Security Policy (CSP) Header Not Set',
    'Reverse Tabnabbing',
    'X-Frame-Options Header Not Set',
  ]);
  t.equal(containers.filter((c) => c.type === 'step').length, 124, 'one step per <instance>');
  t.ok(byTitle(containers, 'Information Disclosure - Suspicious Comments (Informational risk, Low confidence)'));
  t.equal(byTitle(containers, 'http://172.17.0.2').startedAt, '2021-04-26T07:03:32.000Z');
});

t.test('the unmerged report of a scan gives the alerts of its merged report', async (t) => {
  const alerts = async (name: string): Promise<string[][]> => {
    const { containers } = await fx.run(fx.read(name), name);
    return containers
      .filter((c) => c.type === 'test')
      .map((c) => [c.title, c.status, c.properties.find((p) => p.name === 'instances')!.value])
      .sort((a, b) => a[0]!.localeCompare(b[0]!));
  };
  const merged = await alerts('zap-2.4.3-core-report-merged-bodgeit.xml');
  t.equal(merged.length, 10);
  t.same(await alerts('zap-2.4.3-core-report-unmerged-bodgeit-big.xml'), merged);
});

t.test('traditional-xml-plus: request and response per step, tags, plain-text fields', async (t) => {
  const name = 'zap-dev-traditional-xml-plus-template-test-output.xml';
  const { containers } = await fx.run(fx.read(name), name);
  const step = byTitle(containers, 'GET http://example.com/example_3 (Test Param)');
  t.match(
    step.output?.stdout,
    /^GET http:\/\/example.com\/example_3 HTTP\/1.1\n[\s\S]*\n\nTest Request Body\n\nHTTP\/1.0 0/,
  );
  t.match(step.properties, [{ name: 'method' }, { name: 'uri' }, { name: 'param' }, { name: 'attack' }]);
  const xss = byTitle(containers, 'XSS');
  t.same(xss.properties.at(-1), { name: 'tag', value: 'tagkey tagvalue' }, 'the inner <tag> is the key');
  t.equal(byTitle(containers, 'http://example.com').startedAt, '2025-10-22T16:09:39.782Z', '`created` wins');
});

t.test('several sites: an empty one, a false positive, a comment before the XML declaration', async (t) => {
  const name = 'zap-2.11.1-traditional-xml-multi-site-spdx-comment.xml';
  const { containers } = await fx.run(fx.read(name), name);
  t.same(
    containers.filter((c) => c.parentId === null).map((c) => c.title),
    [
      '//bodgeit.securecodebox-demo.svc',
      'https://cwiki.apache.org',
      'http://wiki.apache.org',
      'https://content-signature-2.cdn.mozilla.net',
      'http://bodgeit.securecodebox-demo.svc:8080',
    ],
  );
  t.equal(byTitle(containers, 'HTTP Only Site').status, 'skipped');
});

t.test('instance titles stay unique past the titles an alert remembers', async (t) => {
  const instances = Array.from({ length: 10_003 }, () => ({ uri: 'http://a/', method: 'GET' }));
  const out = drive(report([['http://a', alertItem({ name: 'A', riskcode: '1', confidence: '2' }, instances)]]));
  const titles = out.filter((c) => c.type === 'step').map((c) => c.title);
  t.equal(new Set(titles).size, 10_003);
  t.same(titles.slice(0, 2), ['GET http://a/', 'GET http://a/ #2']);
  t.same(titles.slice(-2), ['GET http://a/ #10002', 'GET http://a/ #10003']);
});

t.test('text is cut at the limit with the marker', async (t) => {
  const long = 'x'.repeat(500);
  const out = drive(
    report([
      ['http://a', alertItem({ name: 'A', riskcode: '3', confidence: '2', desc: long }, [{ uri: 'http://a/' }])],
    ]),
    100,
  );
  t.match(byTitle(out, 'A').output?.stdout, /^Description\nx+\n\[… truncated by Tally at 100 characters\]$/);
});
