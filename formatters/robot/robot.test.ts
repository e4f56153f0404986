import t from 'tap';
import type { Container } from '../../lib/formatter/api.js';
import { totalsOf as count } from '../../lib/formatter/check.js';
import { childrenFirst, driveHandler, feedXml, formatterChecks } from '../../test/helpers/formatter-fixtures.js';
import { formatterFixtures, headOf, producerOnceChildrenFirst } from '../../test/helpers/formatter-fixtures.js';
import type { XmlEvent } from '../../test/helpers/formatter-fixtures.js';
import { robot } from './index.js';
import { robotHandler } from './parse.js';
import { HtmlRefScanner, fileRef, screenshotNames } from './attachments.js';
import { robotTiming } from './values.js';

const fx = formatterFixtures(robot, import.meta.url);

formatterChecks(fx, {
  fixtureScore: 0.9,
  eachFixture: producerOnceChildrenFirst,
  chunks: { asJson: true, eachInChunksOf: 7 },
});

t.test('sniff: exact votes without a generator', async (t) => {
  t.equal(robot.sniff(headOf('<robot><suite id="s1" name="x">')), 0.85, 'no generator, first child <suite>');
  t.equal(robot.sniff(headOf('<robot><arm joints="6"/></robot>')), 0.3, 'some other <robot> vocabulary');
});
const { run } = fx;

type Event = XmlEvent;

function drive(events: Event[], maxTextChars = 1000): Container[] {
  return driveHandler(robotHandler, 'output.xml', maxTextChars, (h) => feedXml(h, events)).out;
}

const status = (value: string, text = '', attrs: Record<string, string> = {}): Event[] => [
  ['open', 'status', { status: value, ...attrs }],
  ...(text ? ([['text', text]] as Event[]) : []),
  ['close', 'status'],
];
const el = (name: string, attrs: Record<string, string>, body: Event[]): Event[] => [
  ['open', name, attrs],
  ...body,
  ['close', name],
];
const suite = (name: string, body: Event[], st = 'PASS', text = ''): Event[] =>
  el('suite', { id: name, name }, [...body, ...status(st, text)]);
const test = (name: string, body: Event[], st = 'PASS', text = ''): Event[] =>
  el('test', { id: name, name }, [...body, ...status(st, text)]);
const kw = (name: string, attrs: Record<string, string>, body: Event[], st = 'PASS', text = ''): Event[] =>
  el('kw', { name, ...attrs }, [...body, ...status(st, text)]);
const msg = (text: string, attrs: Record<string, string> = {}): Event[] =>
  el('msg', { level: 'INFO', ...attrs }, [['text', text]]);
const robotFile = (body: Event[]): Event[] => el('robot', { generator: 'Robot 6.1 (Python 3.11 on linux)' }, body);

t.test('the generated RF 7 file: nested teardown failure, screenshots, steps and hooks', async (t) => {
  const file = 'tally-generated__rf7-nested-teardown-screenshots.xml';
  const { containers } = await run(fx.read(file), file);
  const get = (title: string): Container => containers.find((c) => c.title === title)!;
  t.match(get('Passes With Screenshot'), {
    type: 'test',
    status: 'failed',
    failure: { message: 'Parent suite teardown failed:\ninner teardown broke', type: null, stack: null },
    attachmentRefs: ['selenium-screenshot-1.png'],
    properties: [
      { name: 'tag', value: 'smoke' },
      { name: 'tag', value: 'ui' },
    ],
    startedAt: '2026-11-22T01:07:30.654Z',
    startedAtNaive: true,
    meta: { id: 's1-s1-s1-t1', line: '2' },
  });
  t.match(get('Fails With Screenshot'), {
    status: 'failed',
    failure: { message: 'Element not found' },
    attachmentRefs: ['screens/failure.png'],
  });
  t.match(get('Skipped One'), { status: 'skipped', failure: { message: 'not today' } });
  t.match(get('Simple Pass'), { status: 'passed', failure: null }, 'a sibling suite is not touched by the teardown');
  t.match(get('Inner'), {
    type: 'suite',
    status: 'failed',
    failure: { message: 'Suite teardown failed:\ninner teardown broke' },
  });
  const hooks = containers.filter((c) => c.type === 'hook');
  t.same(
    hooks.map((h) => [h.title, h.status, h.parentId]),
    [
      ['BuiltIn.Log', 'passed', get('Inner').id],
      ['BuiltIn.Fail', 'failed', get('Inner').id],
      ['BuiltIn.Log', 'passed', get('Simple Pass').id],
    ],
  );
  t.same(
    containers.filter((c) => c.parentId === get('Simple Pass').id && c.type === 'step').map((c) => c.title),
    ['FOR IN RANGE', 'IF'],
  );
  t.match(get('Passes With Screenshot'), { durationMs: 0.776 });
});

t.test('state machine: a suite teardown fails the PASS tests of its subtree only', async (t) => {
  const teardown = (text: string): Event[] => kw('Fail', { library: 'BuiltIn', type: 'TEARDOWN' }, [], 'FAIL', text);
  const out = drive(
    robotFile([
      ...suite('Root', [
        ...suite(
          'A',
          [
            ...suite('A1', [
              ...test('a1 pass', []),
              ...test('a1 fail', [], 'FAIL', 'own failure'),
              ...test('a1 skip', [], 'SKIP', 'skipped'),
            ]),
            ...test('a pass', []),
            ...teardown('A broke'),
          ],
          'FAIL',
          'Suite teardown failed:\nA broke',
        ),
        ...suite('B', [...test('b pass', [])]),
      ]),
      ...el('statistics', {}, el('suite', {}, el('stat', { id: 's1', name: 'Root', pass: '2' }, [['text', 'Root']]))),
      ...el('errors', {}, msg('[ WARN ] something', { level: 'WARN' })),
    ]),
  );
  t.same(count(out), { tests: 5, passed: 1, failed: 3, errored: 0, skipped: 1 });
  const get = (title: string): Container => out.find((c) => c.title === title)!;
  t.match(get('a1 pass'), { status: 'failed', failure: { message: 'Parent suite teardown failed:\nA broke' } });
  t.match(get('a1 fail'), { status: 'failed', failure: { message: 'own failure' } });
  t.match(get('a pass'), { status: 'failed' });
  t.match(get('b pass'), { status: 'passed' });
  t.equal(out.filter((c) => c.type === 'suite').length, 4, '<suite> inside <statistics> is not a suite');
  t.ok(childrenFirst(out), 'nested suites: children before parents');
  // Failed and skipped tests go out at once; PASS tests wait for the top-level suite.
  t.ok(out.findIndex((c) => c.title === 'a1 fail') < out.findIndex((c) => c.title === 'a1 pass'));
  t.equal(out[out.length - 1]!.title, 'Root');
});

t.test('state machine: RF 2/3 teardown without status text, tags, metadata, last status wins', async (t) => {
  const out = drive(
    robotFile(
      suite(
        'Old',
        [
          ...test(
            't',
            [
              ...el('tags', {}, [...el('tag', {}, [['text', 'smoke']]), ...el('tag', {}, [['text', ' ']])]),
              ...status('FAIL', 'first'),
              ...kw('Log', { type: 'kw' }, []),
            ],
            'PASS',
            '',
          ),
          ...test('u', [...kw('BuiltIn.Fail', { type: 'kw' }, msg('boom', { level: 'FAIL' }), 'FAIL')], 'FAIL', 'boom'),
          ...kw('BuiltIn.Fail', { type: 'teardown' }, msg('went wrong', { level: 'FAIL' }), 'FAIL'),
          ...el('metadata', {}, el('item', { name: 'Version' }, [['text', '1.2']])),
        ],
        'FAIL',
        'Suite teardown failed:\nwent wrong',
      ),
    ),
  );
  const get = (title: string): Container => out.find((c) => c.title === title)!;
  t.match(
    get('t'),
    {
      status: 'failed',
      properties: [{ name: 'tag', value: 'smoke' }],
      failure: { message: 'Parent suite teardown failed:\nwent wrong' },
    },
    'the last direct <status> decides; the teardown message comes from the suite',
  );
  t.match(
    out.find((c) => c.type === 'step' && c.title === 'BuiltIn.Fail'),
    { status: 'failed', failure: { message: 'boom' } },
    'a keyword without status text takes its FAIL message',
  );
  t.match(
    out.find((c) => c.type === 'hook'),
    { title: 'BuiltIn.Fail', status: 'failed', failure: { message: 'went wrong' } },
  );
  t.same(get('Old').properties, [{ name: 'Version', value: '1.2' }]);
});

t.test('state machine: statuses, step titles, times', async (t) => {
  const out = drive(
    robotFile(
      suite('S', [
        ...test('not run', [], 'NOT RUN'),
        ...test('odd', [], 'WEIRD'),
        ...el('test', { id: 't3', name: 'rf7', line: '9' }, [
          ...el('for', { flavor: 'IN ENUMERATE' }, status('PASS')),
          ...el('while', { condition: '$x > 0' }, status('NOT RUN')),
          ...el('group', { name: 'Login' }, status('PASS')),
          ...el('variable', { name: '${x}' }, status('PASS')),
          ...kw('Should Be Equal', { owner: 'BuiltIn' }, []),
          ...el('setup', { name: 'Open', owner: 'Browser' }, status('PASS')),
          ...status('PASS', '', { start: '2024-03-01T10:00:00.123456', elapsed: '1.5' }),
        ]),
        ...el(
          'test',
          { id: 't4', name: 'rf6' },
          status('PASS', '', { starttime: '20240301 10:00:00.100', endtime: '20240301 10:00:02.350' }),
        ),
        ...el('test', { id: 't5', name: 'merged' }, status('PASS', '', { starttime: 'N/A', endtime: 'N/A' })),
      ]),
    ),
  );
  t.same(
    count(out),
    { tests: 5, passed: 3, failed: 0, errored: 0, skipped: 2 },
    'NOT RUN is skipped; an unknown status counts as skipped',
  );
  const rf7 = out.find((c) => c.title === 'rf7')!;
  t.same(
    out.filter((c) => c.parentId === rf7.id).map((c) => [c.type, c.title, c.status]),
    [
      ['step', 'FOR IN ENUMERATE', 'passed'],
      ['step', 'WHILE $x > 0', 'skipped'],
      ['step', 'GROUP Login', 'passed'],
      ['step', 'VARIABLE ${x}', 'passed'],
      ['step', 'BuiltIn.Should Be Equal', 'passed'],
      ['hook', 'Browser.Open', 'passed'],
    ],
  );
  t.match(rf7, {
    startedAt: '2024-03-01T10:00:00.123Z',
    startedAtNaive: true,
    durationMs: 1500,
    meta: { id: 't3', line: '9' },
  });
  t.match(
    out.find((c) => c.title === 'rf6'),
    { startedAt: '2024-03-01T10:00:00.100Z', durationMs: 2250 },
  );
  t.match(
    out.find((c) => c.title === 'merged'),
    { startedAt: null, durationMs: null },
  );
  t.same(robotTiming({ elapsedtime: '42', starttime: 'N/A' }), { startedAt: null, durationMs: 42 });
});

t.test('attachments: HTML messages, plain screenshot names, what is not a file', async (t) => {
  const out = drive(
    robotFile(
      suite('S', [
        ...kw('Open', { type: 'setup' }, msg('<img src="suite-shot.png">', { html: 'true' })),
        ...test('t', [
          ...kw('Capture', {}, [
            ...kw(
              'Nested',
              {},
              msg(
                '</td></tr><tr><td colspan="3"><a href="selenium-screenshot-7.png"><img ' +
                  'src="selenium-screenshot-7.png" width="800px"></a>',
                { html: 'yes' },
              ),
            ),
            ...msg(
              '<a href="https://example.com/x.png">remote</a><img src="data:image/png;base64,AAAA"><a ' +
                'href="log.html#s1">log</a><a href="details">no extension</a>',
              { html: 'true' },
            ),
            ...msg("<img src='file:///C:/work/out/shot%201.png'>", { html: 'true' }),
            ...msg('Screenshot saved to /home/ci/out/selenium-screenshot-8.png and <img src="not-html.png">'),
          ]),
        ]),
      ]),
    ),
  );
  t.same(out.find((c) => c.title === 't')!.attachmentRefs, [
    'selenium-screenshot-7.png',
    'log.html',
    'C:/work/out/shot 1.png',
    '/home/ci/out/selenium-screenshot-8.png',
  ]);
  t.same(
    out.find((c) => c.title === 'S')!.attachmentRefs,
    ['suite-shot.png'],
    'suite setup screenshots belong to the suite',
  );

  const found: string[] = [];
  const scanner = new HtmlRefScanner((r) => found.push(r));
  const html = '<a hr' + 'ef="a/b.png"><img src="' + 'x'.repeat(10_000) + '"><img SRC = "c.png">';
  for (let i = 0; i < html.length; i += 3) scanner.push(html.slice(i, i + 3));
  t.same(found, ['a/b.png', 'c.png'], 'values split across pieces are found; an over-long inline value is skipped');
  t.same(screenshotNames('see C:\\ci\\selenium-screenshot-1.png, then selenium-screenshot-2.jpg.'), [
    'C:\\ci\\selenium-screenshot-1.png',
    'selenium-screenshot-2.jpg',
  ]);
  t.equal(fileRef('#top', true), null);
  t.equal(fileRef('mailto:a@b', false), null);
  t.equal(fileRef('shots/a.png?v=1', false), 'shots/a.png');
});

t.test('long status text is cut with the marker', async (t) => {
  const out = drive(robotFile(suite('S', test('t', [], 'FAIL', `\n  ${'y'.repeat(50)}`))), 10);
  t.match(out.find((c) => c.title === 't')!.failure!.message, /^y{10}\n\[… truncated by Tally at 10 characters\]$/);
});
