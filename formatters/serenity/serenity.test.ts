import t from 'tap';
import type { Container } from '../../lib/formatter/api.js';
import { totalsOf as count } from '../../lib/formatter/check.js';
import { byTitle, driveHandler, formatterFixtures, jsonReportChecks } from '../../test/helpers/formatter-fixtures.js';
import { walkJson } from '../../test/helpers/formatter-fixtures.js';
import { serenity } from './index.js';
import { serenityHandler } from './parse.js';

const fx = formatterFixtures(serenity, import.meta.url);
const { run } = fx;

jsonReportChecks(fx);

function drive(outcome: unknown): Container[] {
  return driveHandler(serenityHandler, 'outcome.json', 1000, (h) => walkJson(h, [], outcome)).out;
}

const outcome = (result: string, extra: Record<string, unknown> = {}) => ({
  name: 'a scenario',
  testSteps: [{ number: 1, description: 'Given a step', duration: 3, result }],
  userStory: { id: 'a-story', storyName: 'A story', path: 'a_story.feature', type: 'feature' },
  title: 'A scenario',
  testSource: 'Cucumber',
  result,
  ...extra,
});

t.test('every result word maps to its status (README table)', async (t) => {
  const table: [string, string][] = [
    ['SUCCESS', 'passed'],
    ['FAILURE', 'failed'],
    ['UNSUCCESSFUL', 'failed'],
    ['ERROR', 'errored'],
    ['COMPROMISED', 'errored'],
    ['PENDING', 'pending'],
    ['IGNORED', 'skipped'],
    ['SKIPPED', 'skipped'],
    ['ABORTED', 'skipped'],
    ['UNDEFINED', 'unknown'],
  ];
  for (const [word, status] of table) {
    const cs = drive(outcome(word));
    t.match(byTitle(cs, 'A scenario'), { type: 'scenario', status }, word);
    t.match(byTitle(cs, 'Given a step'), { type: 'step', status }, `${word}: the step`);
  }
});

t.test('the story is the suite, the outcome a scenario with its failure, tags and times', async (t) => {
  const name = 'serenity-2015-error-stale-element-epoch-times.json';
  const { containers } = await run(fx.read(name), name);
  const story = containers[containers.length - 1]!;
  t.match(story, {
    type: 'suite',
    parentId: null,
    title: 'Display product details',
    status: 'errored',
    meta: { path: 'search/display_product_details.feature', type: 'feature' },
  });
  const scenario = byTitle(containers, 'Display product details from the search list');
  t.match(scenario, {
    type: 'scenario',
    parentId: story.id,
    status: 'errored',
    durationMs: 13615,
    startedAt: '2015-07-22T12:03:00.528Z',
    failure: {
      type: 'org.openqa.selenium.StaleElementReferenceException',
      message: /^stale element reference: element is not attached to the page document/,
      stack: /^org\.openqa\.selenium\.StaleElementReferenceException: stale element[\s\S]*\n\tat \S+\(\S+\.java:\d+\)/,
    },
    meta: { result: 'ERROR' },
  });
  t.ok(scenario.properties.length > 0, 'tags as properties');
  const steps = containers.filter((c) => c.type === 'step');
  t.equal(steps.length, 7, 'every step, nested ones included');
  t.ok(
    steps.some((s) => s.attachmentRefs.some((r) => r.endsWith('.png'))),
    'screenshots are attachment references',
  );
});

t.test('data-driven: a suite of one test per row, the row result counts, failures where they belong', async (t) => {
  const outline = 'serenity-2016-cucumber-outline-failure-datatable.json';
  const { containers } = await run(fx.read(outline), outline);
  const suite = byTitle(containers, 'Viewing filtered items');
  t.match(suite, { type: 'suite', status: 'failed', meta: { dataDriven: 'true' } });
  const rows = containers.filter((c) => c.parentId === suite.id);
  t.match(rows, [
    { type: 'scenario', status: 'passed', failure: null, meta: { row: '1' } },
    {
      type: 'scenario',
      status: 'failed',
      failure: { type: 'java.lang.AssertionError', message: /Expected: <\[Walk the cat\]>/ },
      meta: { row: '2', values: 'Buy some milk, Walk the dog | Completed | Walk the cat' },
    },
  ]);
  t.ok(
    containers.some((c) => c.type === 'step' && c.parentId === rows[1]!.id),
    "the row's steps are under it",
  );
  const large = 'serenity-2022-cucumber-data-driven-failure-large.json';
  const many = (await run(fx.read(large), large)).containers;
  const failed = many.filter((c) => c.type === 'scenario' && c.status === 'failed');
  t.same(
    failed.map((c) => c.failure?.message),
    ['expected: "30"\n but was: "3"', 'expected: "22"\n but was: "0"', 'expected: "210"\n but was: "21"'],
    "each failed row keeps its own step's exception",
  );
});

t.test('rows and top-level steps that do not pair up stay one test', async (t) => {
  const cs = drive(
    outcome('FAILURE', {
      dataTable: { headers: ['a'], rows: [{ values: ['1'], result: 'SUCCESS' }, { values: ['2'] }] },
    }),
  );
  t.same(count(cs), { tests: 1, passed: 0, failed: 1, errored: 0, skipped: 0 });
  t.match(byTitle(cs, 'A scenario'), { type: 'scenario', meta: { examples: '2' } });
});

t.test('Thucydides: user-story, string durations, examples rows, ISO timestamp', async (t) => {
  const name = 'thucydides-2013-jbehave-examples-pending-big.json';
  const { containers, producers } = await run(fx.read(name), name);
  t.same(producers, ['thucydides']);
  t.match(containers[containers.length - 1], { title: 'Robas', meta: { qualifiedStoryClassName: 'robas' } });
  const suite = byTitle(containers, 'User tries to upload a duplicate batch name');
  t.match(suite, { type: 'suite', durationMs: 994, startedAt: '2013-08-03T08:25:36.169Z' });
  t.equal(containers.filter((c) => c.parentId === suite.id && c.status === 'pending').length, 23);
});

t.test('zone ids after the offset, JUnit 5 with flattenedSteps, manual and Serenity/JS outcomes', async (t) => {
  const ignored = 'serenity-2018-cucumber-ignored.json';
  t.match(byTitle((await run(fx.read(ignored), ignored)).containers, 'A mixed ignored scenario'), {
    status: 'skipped',
    startedAt: '2018-08-01T18:24:54.578Z',
  });
  const junit = 'serenity-2023-junit5-error-connection-refused.json';
  const j = (await run(fx.read(junit), junit)).containers;
  t.match(byTitle(j, 'Check status'), {
    type: 'test',
    status: 'errored',
    failure: { type: 'java.net.ConnectException', message: 'Connection refused' },
    meta: { name: 'checkStatus', testSource: 'JUnit5' },
  });
  t.match(j[j.length - 1], { title: 'Wordle API Specs', meta: { storyName: 'Game API' } });
  t.equal(j.filter((c) => c.type === 'step').length, 3, 'flattenedSteps repeat testSteps: read once');
  const manual = 'serenity-2023-manual-test-failure-no-steps.json';
  const m = (await run(fx.read(manual), manual)).containers;
  t.match(byTitle(m, 'Totals should include EU VAT rates for each country'), {
    status: 'failed',
    failure: null,
    meta: { manual: 'true' },
  });
  const js = 'serenity-js-2023-playwright-success-nested-steps.json';
  const { containers, producers } = await run(fx.read(js), js);
  t.same(producers, ['serenity-js']);
  t.match(byTitle(containers, 'Todo List App should allow me to mark items as complete'), {
    type: 'test',
    status: 'passed',
  });
  t.equal(containers.filter((c) => c.type === 'step').length, 25, 'nested steps');
});
