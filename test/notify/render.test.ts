/**
 * A notice as each target takes it (lib/notify/render.ts): the Teams message carrying an Adaptive
 * Card, Slack's text and blocks with test names that cannot become mentions or links, the e-mail's
 * subject and text, lists cut with "… and N more", and Tally's JSON keeping every test.
 */
import t from 'tap';
import type { Notice } from '../../lib/notify/notice.js';
import { LISTED, render } from '../../lib/notify/render.js';

const tests = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ titlePath: ['suite <@here>', `case & ${i} [x](y)`], seq: i + 1 }));

const notice: Notice = {
  deliveryId: 'd-1',
  trigger: 'completed',
  events: ['new_failure', 'fixed'],
  profile: { number: 4, name: 'web', url: 'https://tally.example.org/profiles/4' },
  report: {
    number: 17,
    url: 'https://tally.example.org/reports/17',
    status: 'failed',
    date: '2030-01-01T00:00:00.000Z',
    totals: {
      containers: 30,
      tests: 25,
      passed: 10,
      failed: 15,
      errored: 0,
      skipped: 0,
      pending: 0,
      unknown: 0,
      flaky: 0,
    },
    ci: {
      provider: 'github',
      buildNumber: '9',
      buildUrl: null,
      branch: 'main',
      commit: 'abcdef1234567890',
      job: null,
      pullRequest: null,
    },
  },
  failedImport: null,
  changes: {
    base: { number: 16 },
    newFailures: { total: 15, tests: tests(15) },
    fixed: { total: 1, tests: tests(1) },
    newlyFlaky: { total: 0, tests: [] },
  },
  base: 'https://tally.example.org',
};

t.test('Teams: a message with one Adaptive Card', async (t) => {
  const r = render(notice, { kind: 'webhook', format: 'teams' });
  const body = JSON.parse((r as { body: string }).body);
  t.equal(body.type, 'message');
  t.equal(body.attachments.length, 1);
  const [a] = body.attachments;
  t.equal(a.contentType, 'application/vnd.microsoft.card.adaptive');
  t.equal(a.contentUrl, null);
  t.match(a.content, {
    type: 'AdaptiveCard',
    version: '1.4',
    $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
  });
  t.match(a.content.body[0], {
    type: 'TextBlock',
    text: 'Tally · web: report #17 failed, 15 new failures, 1 fixed',
    weight: 'Bolder',
  });
  t.strictSame(a.content.actions, [{ type: 'Action.OpenUrl', title: 'Open the report', url: notice.report!.url }]);
  const list = a.content.body.find((b: { text: string }) => b.text.startsWith('- ['));
  t.match(list.text, 'case & 0 \\[x\\]\\(y\\)', "a name's Markdown is escaped");
  t.match(list.text, '… and 5 more');
  t.equal(list.text.split('\n').length, LISTED + 1);
});

t.test('Slack: text and blocks; names cannot mention or link', async (t) => {
  const body = JSON.parse((render(notice, { kind: 'webhook', format: 'slack' }) as { body: string }).body);
  t.equal(body.text, 'Tally · web: report #17 failed, 15 new failures, 1 fixed');
  t.match(body.blocks[0].text, { type: 'mrkdwn', text: /^\*<https:\/\/tally\.example\.org\/reports\/17\|Tally · web/ });
  t.match(body.blocks[0].text.text, '(compared with report #16)');
  const failures = body.blocks[1].text.text as string;
  t.match(failures, /^\*New failures\*/);
  t.match(failures, '<https://tally.example.org/reports/17/nodes/1|suite &lt;@here&gt; › case &amp; 0 [x](y)>');
  t.notMatch(failures, '<@here>');
  t.match(body.blocks[2].text.text, /^\*Fixed\*/);
  t.equal(body.blocks.length, 3, 'no block for an empty list');
});

t.test('e-mail: the headline as subject, plain text with the links', async (t) => {
  const r = render(notice, { kind: 'email' }) as { subject: string; text: string };
  t.equal(r.subject, 'Tally · web: report #17 failed, 15 new failures, 1 fixed');
  t.match(r.text, '10 passed, 15 failed (compared with report #16)');
  t.match(r.text, 'branch main, commit abcdef123456');
  t.match(r.text, '- suite <@here> › case & 0 [x](y)\n  https://tally.example.org/reports/17/nodes/1');
  t.match(r.text, '… and 5 more');
  t.match(r.text, 'https://tally.example.org/profiles/4/notifications');
});

t.test("Tally's JSON keeps every test; a failed import and a test say what they are", async (t) => {
  const body = JSON.parse((render(notice, { kind: 'webhook', format: 'json' }) as { body: string }).body);
  t.equal(body.changes.new_failures.tests.length, 15);
  t.strictSame(body.changes.new_failures.tests[0], {
    title_path: ['suite <@here>', 'case & 0 [x](y)'],
    url: 'https://tally.example.org/reports/17/nodes/1',
  });
  t.match(body.report.ci, { branch: 'main', build_number: '9', pull_request: null });
  const failed: Notice = {
    ...notice,
    trigger: 'failed',
    events: ['import_failed'],
    report: null,
    changes: null,
    failedImport: {
      id: 'i-1',
      url: 'https://tally.example.org/api/v2/imports/i-1',
      errors: [{ code: 'zip_invalid', message: 'bad zip' }],
    },
  };
  const f = JSON.parse((render(failed, { kind: 'webhook', format: 'json' }) as { body: string }).body);
  t.match(f, {
    text: 'Tally · web: an import failed (zip_invalid)',
    report: null,
    import: { id: 'i-1', status: 'failed' },
  });
  const test = render({ ...failed, trigger: 'test', events: ['test'], failedImport: null }, { kind: 'email' });
  t.match((test as { subject: string }).subject, 'a test notification');
});
