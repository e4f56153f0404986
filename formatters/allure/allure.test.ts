import t from 'tap';
import { FormatError, type Container } from '../../lib/formatter/api.js';
import { totalsOf as count } from '../../lib/formatter/check.js';
import { childrenFirst, failure, formatterChecks, formatterFixtures } from '../../test/helpers/formatter-fixtures.js';
import { headOf, producerOnceChildrenFirst } from '../../test/helpers/formatter-fixtures.js';
import { allure } from './index.js';
import { allure2Handler } from './allure2.js';
import { allure1Handler } from './allure1.js';
import { allureStatus } from './values.js';

const fx = formatterFixtures(allure, import.meta.url);

formatterChecks(fx, { fixtureScore: 0.7, eachFixture: producerOnceChildrenFirst, chunks: { eachInChunksOf: 1 } });

t.test('sniff: thin heads, file names and prefixes', async (t) => {
  t.equal(
    allure.sniff(headOf('{"uuid":"a","start":1}', 'a-result.json')),
    0.6,
    'a result file name backs a thin key set',
  );
  t.equal(allure.sniff(headOf('{"uuid":"a","children":[]}', 'a.json')), 0.9, 'an empty container');
  // Content decides, not the name: results folders get renamed and flattened on their way to Tally.
  const pytest = '{"name":"t","status":"passed","steps":[{"name":"s"';
  t.equal(allure.sniff(headOf(pytest, 'b-result.json')), 0.7, 'allure-pytest key order, uuid beyond the head');
  t.equal(allure.sniff(headOf(pytest, 'b.json')), 0.7, 'the same under any name');
  const failed = '{"name":"t","status":"failed","statusDetails":{"message":"m"},"steps":[{"name":"s"';
  t.equal(allure.sniff(headOf(failed, 'x.json')), 0.85, 'status, statusDetails and steps');
  const renamed = '{"uuid":"a","historyId":"h","status":"passed","name":"t"}';
  t.equal(allure.sniff(headOf(renamed, 'results.json')), 0.9, 'uuid and a result field');
  const nearMisses: [text: string, why: string][] = [
    ['{"name":"t","status":"ok","steps":[]}', 'a status that is not an Allure word'],
    ['{"name":"t","status":"passed"}', 'a status and a name only'],
    ['{"status":"passed","steps":[]}', 'one field and no name'],
    ['{"name":"t","status":{"code":1},"steps":[],"start":1}', 'a status that is not a string'],
    [
      '{"name":"t","id":"x","testSteps":[],"userStory":{"id":"u"},"startTime":"2024","duration":5,"result":"SUCCESS"}',
      'a Serenity outcome',
    ],
  ];
  for (const [text, why] of nearMisses) t.equal(allure.sniff(headOf(text, 'x-result.json')), 0, why);
  const ns0 = '<ns0:test-suite xmlns:ns0="urn:model.allure.qatools.yandex.ru"><name>x</name>';
  t.equal(allure.sniff(headOf(ns0, 'x-testsuite.xml')), 0.95, 'any prefix');
});
const { run } = fx;

/** Parses inline text the way Tally does, under a file name. */
async function parseText(text: string, fileName: string, maxTextChars = 1000) {
  return run(Buffer.from(text), fileName, 65536, maxTextChars);
}

const NS = 'xmlns:ns2="urn:model.allure.qatools.yandex.ru"';

t.test('a container file holds no test but still yields its suite and fixtures', async (t) => {
  const file = 'allure2__04642ae7-159a-4dcd-baef-8db98884d041-container.json';
  const { containers } = await run(fx.read(file), file);
  const suite = containers[containers.length - 1]!;
  t.match(suite, {
    type: 'suite',
    title: 'All',
    parentId: null,
    status: 'passed',
    durationMs: 45584,
    startedAt: '2016-11-29T20:16:49.874Z',
    meta: { uuid: 'b1c94ca2fbc3e78fc30069c8d0f01680', allure: 'container', children: '2' },
  });
  t.same(
    containers.filter((c) => c.type === 'hook').map((c) => [c.title, c.status, c.parentId]),
    [
      ['mockAuthorization', 'passed', suite.id],
      ['cleanUpContext', 'passed', suite.id],
    ],
  );
  t.equal(containers.filter((c) => c.type === 'step').length, 4, 'fixture steps');
  t.equal(count(containers).tests, 0);
});

t.test('Allure 2 result: status, failure, suite path from labels, attachments, parameters', async (t) => {
  const result = {
    uuid: 'u-1',
    historyId: 'h-1',
    testCaseId: 'tc-1',
    fullName: 'com.acme.LoginTest.rejects',
    name: 'rejects a bad password',
    status: 'broken',
    statusDetails: {
      message: 'NullPointerException',
      trace: 'java.lang.NullPointerException\n\tat com.acme.Login',
      flaky: true,
    },
    stage: 'finished',
    start: 1700000000000,
    stop: 1700000001500,
    labels: [
      { name: 'parentSuite', value: 'Web' },
      { name: 'suite', value: 'Login' },
      { name: 'subSuite', value: 'Passwords' },
      { name: 'framework', value: 'JUnit5' },
      { name: 'tag', value: 'smoke' },
    ],
    parameters: [
      { name: 'user', value: 'anne' },
      { name: 'password', value: 'hunter2', mode: 'masked' },
      { name: 'token', value: 'secret', mode: 'hidden' },
    ],
    links: [{ name: 'JIRA-1', url: 'https://jira/JIRA-1', type: 'issue' }],
    attachments: [
      { name: 'Screenshot', source: 'a1-attachment.png', type: 'image/png' },
      { name: 'again', source: 'a1-attachment.png' },
    ],
    steps: [
      {
        name: 'open page',
        status: 'passed',
        start: 1700000000000,
        stop: 1700000000100,
        attachments: [{ name: 'page', source: 's1-attachment.html' }],
        steps: [{ name: 'inner', status: 'passed' }],
      },
    ],
  };
  const { containers, producers } = await parseText(JSON.stringify(result, null, 2), 'u-1-result.json');
  t.same(producers, ['allure-junit5']);
  t.ok(childrenFirst(containers), 'children before parents');
  t.same(
    containers.map((c) => [c.type, c.title]),
    [
      ['step', 'inner'],
      ['step', 'open page'],
      ['test', 'rejects a bad password'],
      ['suite', 'Passwords'],
      ['suite', 'Login'],
      ['suite', 'Web'],
    ],
  );
  const test = containers[2]!;
  t.match(test, {
    status: 'errored',
    durationMs: 1500,
    startedAt: '2023-11-14T22:13:20.000Z',
    failure: {
      message: 'NullPointerException',
      type: null,
      stack: 'java.lang.NullPointerException\n\tat com.acme.Login',
    },
    attachmentRefs: ['a1-attachment.png'],
    meta: {
      uuid: 'u-1',
      historyId: 'h-1',
      testCaseId: 'tc-1',
      fullName: 'com.acme.LoginTest.rejects',
      allureFlaky: 'true',
    },
  });
  t.notOk(test.startedAtNaive, 'epoch milliseconds are UTC');
  t.notOk(test.flaky, 'Allure’s flaky mark is a label of the test, not an observed retry');
  t.same(test.properties.slice(5), [
    { name: 'parameter:user', value: 'anne' },
    { name: 'parameter:password', value: '******' },
    { name: 'link:issue', value: 'https://jira/JIRA-1' },
  ]);
  t.same(containers[1]!.attachmentRefs, ['s1-attachment.html'], 'step attachments stay on the step');
  t.equal(containers[5]!.parentId, null);
  t.equal(containers[4]!.parentId, containers[5]!.id);
});

t.test('Allure 2 result: suite path fallbacks, statuses and stages', async (t) => {
  const one = async (obj: Record<string, unknown>, file = 'x-result.json'): Promise<Container[]> =>
    (await parseText(JSON.stringify(obj), file)).containers;
  t.same(
    (await one({ uuid: 'a', name: 't', status: 'passed', titlePath: ['tests', 'login.spec.ts', 'Login'] }))
      .filter((c) => c.type === 'suite')
      .map((c) => c.title),
    ['Login', 'login.spec.ts', 'tests'],
    'titlePath when there are no suite labels',
  );
  t.same(
    (await one({ uuid: 'a', name: 't', status: 'passed', labels: [{ name: 'testClass', value: 'com.acme.T' }] })).map(
      (c) => c.title,
    ),
    ['t', 'com.acme.T'],
    'testClass as the last resort',
  );
  t.same(
    (await one({ uuid: 'a', name: 't', status: 'skipped' })).map((c) => [c.type, c.parentId]),
    [['test', null]],
    'no suite at all',
  );
  const staged = (await one({ uuid: 'a', name: 't', stage: 'interrupted' }))[0]!;
  t.match(staged, { status: 'unknown', meta: { stage: 'interrupted' } }, 'no status: unknown (counted as skipped)');
  const table: [unknown, string][] = [
    ['passed', 'passed'],
    ['failed', 'failed'],
    ['broken', 'errored'],
    ['skipped', 'skipped'],
    ['unknown', 'unknown'],
    ['Passed', 'passed'],
    ['canceled', 'skipped'],
    ['pending', 'skipped'],
    ['some-invalid-string', 'unknown'],
    [undefined, 'unknown'],
    [3, 'unknown'],
  ];
  for (const [raw, want] of table) t.equal(allureStatus(raw), want, String(raw));
  const long = (
    await parseText(
      JSON.stringify({ uuid: 'a', name: 't', status: 'failed', statusDetails: { message: 'm'.repeat(50) } }),
      'x-result.json',
      10,
    )
  ).containers[0]!;
  t.match(
    long.failure!.message,
    /^m{10}\n\[… truncated by Tally at 10 characters\]$/,
    'long text is cut with the marker',
  );
  const passedWithDetails = (
    await one({ uuid: 'a', name: 't', status: 'passed', statusDetails: { message: 'retried once', known: true } })
  )[0]!;
  t.match(passedWithDetails, { failure: null, meta: { allureKnown: 'true' } });
});

t.test('Allure 2 container: failed fixtures are visible but not counted', async (t) => {
  const container = {
    uuid: 'c-1',
    name: 'LoginTest',
    children: ['r-1', 'r-2'],
    befores: [{ name: 'startBrowser', status: 'broken', statusDetails: { message: 'no display' }, start: 1, stop: 5 }],
    afters: [{ name: 'cleanUp', steps: [{ name: 'close', status: 'failed' }] }],
    start: 1,
    stop: 10,
  };
  const { containers, producers } = await parseText(JSON.stringify(container), 'c-1-container.json');
  t.same(producers, ['allure']);
  t.same(count(containers).tests, 0);
  t.same(
    containers.map((c) => [c.type, c.title, c.status]),
    [
      ['hook', 'startBrowser', 'errored'],
      ['step', 'close', 'failed'],
      ['hook', 'cleanUp', 'failed'],
      ['suite', 'LoginTest', 'errored'],
    ],
  );
  t.match(containers[0], { failure: { message: 'no display' } });
  t.match(containers[3], { meta: { allure: 'container', children: '2' } });
  t.same(
    (await parseText('{"uuid":"c-2","children":[]}', 'c-2.json')).containers.map((c) => [c.type, c.title, c.status]),
    [['suite', 'container c-2', 'passed']],
    'an empty container',
  );
  t.same(
    (await parseText('{"uuid":"c-3","name":"Fixture scope"}', 'c-3-container.json')).containers.map((c) => c.type),
    ['suite'],
    'the file name settles a bare container',
  );
});

t.test('Allure 1 XML: statuses, title and name, steps, attachments, labels, parameters', async (t) => {
  const xml = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<ns2:test-suite ${NS} start="1412949538848" stop="1412949560045" version="1.4.4">
  <name>my.company.AppTest</name>
  <title>App</title>
  <test-cases>
    <test-case start="1412949539730" stop="1412949539731" status="canceled"><name>a</name></test-case>
    <test-case start="1412949539730" stop="1412949539735" status="failed">
      <name>checkout</name>
      <title>Checkout works</title>
      <failure><message>expected 2</message><stack-trace>java.lang.AssertionError: expected 2</stack-trace></failure>
      <steps>
        <step start="1412949539731" stop="1412949539732" status="passed"><name>open</name>
          <attachments><attachment title="Screen" source="abc-attachment.png" type="image/png"/></attachments>
          <steps><step start="1" stop="2" status="failed"><name>inner</name></step></steps>
        </step>
      </steps>
      <attachments><attachment title="log" source="log-attachment.txt" type="text/plain" size="1"/></attachments>
      <labels><label name="severity" value="critical"/></labels>
      <parameters><parameter name="browser" value="firefox" kind="argument"/></parameters>
    </test-case>
    <test-case status="passed"><name>b</name></test-case>
  </test-cases>
  <labels><label name="framework" value="TestNG"/></labels>
</ns2:test-suite>`;
  const { containers, producers } = await parseText(xml, 'x-testsuite.xml');
  t.same(producers, ['allure-testng']);
  t.ok(childrenFirst(containers));
  t.same(count(containers), { tests: 3, passed: 1, failed: 1, errored: 0, skipped: 1 });
  const get = (title: string): Container => containers.find((c) => c.title === title)!;
  t.match(get('Checkout works'), {
    type: 'test',
    status: 'failed',
    durationMs: 5,
    failure: { message: 'expected 2', type: null, stack: 'java.lang.AssertionError: expected 2' },
    attachmentRefs: ['log-attachment.txt'],
    properties: [
      { name: 'severity', value: 'critical' },
      { name: 'parameter:browser', value: 'firefox' },
    ],
    meta: { name: 'checkout' },
  });
  t.match(get('open'), {
    type: 'step',
    status: 'passed',
    attachmentRefs: ['abc-attachment.png'],
    parentId: get('Checkout works').id,
  });
  t.match(get('inner'), { type: 'step', status: 'failed', parentId: get('open').id });
  t.match(get('b'), { status: 'passed', startedAt: null, durationMs: null });
  t.match(get('App'), {
    type: 'suite',
    parentId: null,
    status: 'failed',
    durationMs: 21197,
    properties: [{ name: 'framework', value: 'TestNG' }],
    meta: { name: 'my.company.AppTest' },
  });
  t.type(
    await failure(parseText(`<test-suite><name>x</name></test-suite>`, 'x-testsuite.xml')),
    FormatError,
    'a test-suite outside the Allure namespace is refused',
  );
});

t.test('handlers can be driven without the stream shell', async (t) => {
  const out: Container[] = [];
  let id = 0;
  const ctx = { fileName: 'x', nextId: () => ++id, limits: { maxTextChars: 100 }, setProducer: () => {} };
  const h1 = allure1Handler(ctx, (c) => out.push(c));
  h1.open('ns2:test-suite', { 'xmlns:ns2': 'urn:model.allure.qatools.yandex.ru' });
  h1.open('test-cases', {});
  h1.open('test-case', { status: 'broken' });
  h1.close('test-case');
  h1.close('test-cases');
  h1.close('ns2:test-suite');
  h1.end();
  t.same(
    out.map((c) => [c.type, c.status]),
    [
      ['test', 'errored'],
      ['suite', 'errored'],
    ],
  );
  const h2 = allure2Handler(ctx, (c) => out.push(c));
  t.equal(h2.open!([], 'object'), false);
  h2.value!(['uuid'], 'u');
  h2.value!(['status'], 'passed');
  h2.close!([], 'object');
  h2.end();
  t.match(out[out.length - 1], { type: 'test', status: 'passed', title: 'u' });
});
