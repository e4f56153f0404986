/**
 * The GitHub provider's pure parts: the API root per server and the cron lines of a workflow. The
 * requests themselves are checked against a real Gitea by lib/ci/check.ts (see README.md).
 */
import t from 'tap';
import { apiRoot, cronsOf, github } from './index.js';
import { assertProvider } from '../../lib/ci/registry.js';

t.test('a well-formed provider', async (t) => {
  t.doesNotThrow(() => assertProvider(github));
});

t.test('the API root: api.github.com for github.com, /api/v1 for Gitea and Forgejo', async (t) => {
  t.equal(apiRoot('https://github.com'), 'https://api.github.com');
  t.equal(apiRoot('https://gitea.example.org'), 'https://gitea.example.org/api/v1');
  t.equal(apiRoot('http://127.0.0.1:3000/git/'), 'http://127.0.0.1:3000/git/api/v1');
});

t.test("a workflow's cron lines", async (t) => {
  const workflow = [
    'name: tests',
    'on:',
    '  push:',
    '  schedule:',
    "    - cron: '0 3 * * *'",
    '    - cron: "30 5 * * 1-5"  # weekdays',
    '    - cron: 15 * * * *',
    'jobs:',
    '  test:',
    '    runs-on: ubuntu-latest',
  ].join('\n');
  t.strictSame(cronsOf(workflow), ['0 3 * * *', '30 5 * * 1-5', '15 * * * *']);
  t.strictSame(cronsOf('on: push'), []);
});
