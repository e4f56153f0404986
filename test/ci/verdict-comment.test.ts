/**
 * The verdict's words (lib/ci/verdict-comment.ts), table by table: the lists of new failures, fixed
 * and flaky tests with their links, the 65,536-character cap with a huge report, and test names
 * that are Markdown or HTML (`<img src=x>`, `|`, backticks, newlines) kept inert in code spans.
 */
import t from 'tap';
import {
  code,
  commentBody,
  commentMarker,
  markerChars,
  MAX_COMMENT_CHARS,
  statusContext,
  statusDescription,
  type VerdictFacts,
  type VerdictList,
} from '../../lib/ci/verdict-comment.js';
import type { Totals } from '../../lib/store/types.js';

const totals = (o: Partial<Totals>): Totals => ({
  containers: 0,
  tests: 0,
  passed: 0,
  failed: 0,
  errored: 0,
  skipped: 0,
  pending: 0,
  unknown: 0,
  flaky: 0,
  ...o,
});
const URL = 'https://tally.example.org/reports/57';
const list = (...names: string[]): VerdictList => ({
  tests: names.map((n, i) => ({ path: ['Suite', n], url: `${URL}/nodes/${i + 1}` })),
  total: names.length,
});
const facts = (o: Partial<VerdictFacts> = {}): VerdictFacts => ({
  profile: { number: 3, name: 'web' },
  branch: 'feature/login',
  commit: '9fceb02d0ae598e95dc970b74767f19372d61af8',
  report: { number: 57, url: URL, totals: totals({ passed: 120, failed: 2, skipped: 3 }) },
  previous: { number: 56, url: 'https://tally.example.org/reports/56' },
  newFailures: list(),
  fixed: list(),
  flaky: list(),
  ...o,
});
const body = (f: VerdictFacts) => commentBody(f, MAX_COMMENT_CHARS - markerChars(commentMarker(3, f.branch)));

t.test('the status: context per profile, the counts as pages tell them', async (t) => {
  t.equal(statusContext('web'), 'tally/web');
  t.equal(statusContext('a\nb'), 'tally/a b', 'one line');
  t.equal(statusDescription(totals({ passed: 120, failed: 2, skipped: 3 })), '120 passed, 2 failed, 3 skipped');
  t.equal(statusDescription(totals({ passed: 4 })), '4 passed, 0 failed');
});

t.test('the marker names the profile and the branch, and cannot end its HTML comment', async (t) => {
  t.equal(commentMarker(3, 'feature/login'), 'tally-verdict profile=3 branch=feature%2Flogin');
  t.notMatch(commentMarker(3, 'x-->y <b>'), /-->|</);
  t.not(commentMarker(3, 'main'), commentMarker(4, 'main'), 'another profile, another comment');
  t.not(commentMarker(3, 'main'), commentMarker(3, 'dev'), 'another branch, another comment');
});

const rows: { name: string; facts: VerdictFacts; has: (string | RegExp)[]; hasNot?: (string | RegExp)[] }[] = [
  {
    name: 'failed, with new failures, fixed and flaky tests',
    facts: facts({
      newFailures: list('logs in', 'logs out'),
      fixed: list('renders'),
      flaky: list('retries'),
    }),
    has: [
      /^### ❌ Tally: failed · `web` on `feature\/login`\n/,
      `**120 passed, 2 failed, 3 skipped** in [report #57](${URL}) of commit \`9fceb02d0ae5\`, compared with ` +
        '[report #56](https://tally.example.org/reports/56).',
      `#### New failures (2)\n- [\`Suite › logs in\`](${URL}/nodes/1)\n- [\`Suite › logs out\`](${URL}/nodes/2)`,
      `#### Fixed (1)\n- [\`Suite › renders\`](${URL}/nodes/1)`,
      `#### Flaky (1)\n- [\`Suite › retries\`](${URL}/nodes/1)`,
    ],
    hasNot: ['… and'],
  },
  {
    name: 'passed, nothing to list',
    facts: facts({ report: { number: 57, url: URL, totals: totals({ passed: 5 }) } }),
    has: [/^### ✅ Tally: passed/, '#### New failures (0)\nNone.', '#### Fixed (0)\nNone.', '#### Flaky (0)\nNone.'],
  },
  {
    name: 'no earlier report of the branch: every failure is new',
    facts: facts({ previous: null, newFailures: list('a') }),
    has: ['No earlier report of this branch: every failure is new.', '#### New failures (1)'],
    hasNot: ['compared with'],
  },
  {
    name: 'no branch in the CI context',
    facts: facts({ branch: null }),
    has: [/^### ❌ Tally: failed · `web`\n/],
  },
  {
    name: 'a test without a page link is listed by name',
    facts: facts({ flaky: { tests: [{ path: ['S', 't'], url: null }], total: 1 } }),
    has: ['#### Flaky (1)\n- `S › t`'],
  },
  {
    name: 'more tests than were gathered: the rest counted',
    facts: facts({ newFailures: { tests: list('a', 'b').tests, total: 10 } }),
    has: [`- … and 8 more in [the report](${URL})`],
  },
  {
    name: 'test names that are HTML, Markdown or a table',
    facts: facts({
      newFailures: list('<img src=x onerror=alert(1)>', 'a | b | c', '**bold** [x](javascript:alert(1))', '@admin'),
      fixed: list('has `ticks` inside', '`starts with one', 'two\nlines\r\nhere'),
      profile: { number: 3, name: '<script>x</script>' },
      branch: 'feat/`x`',
    }),
    has: [
      '[`Suite › <img src=x onerror=alert(1)>`]',
      '[`Suite › a | b | c`]',
      '[`Suite › **bold** [x](javascript:alert(1))`]',
      '[`Suite › @admin`]',
      '[``Suite › has `ticks` inside``]',
      '[``Suite › `starts with one``]',
      '[`Suite › two lines here`]',
      '· `<script>x</script>` on `` feat/`x` ``',
    ],
    hasNot: [/\n[^-#\n*]*<img/, /lines\n/],
  },
];

for (const row of rows)
  t.test(row.name, async (t) => {
    const text = body(row.facts);
    for (const want of row.has) t.match(text, want);
    for (const not of row.hasNot ?? []) t.notMatch(text, not);
  });

t.test('code spans: the fence outgrows any run of backticks inside', async (t) => {
  const cases: [string, string][] = [
    ['plain', '`plain`'],
    ['a`b', '``a`b``'],
    ['a``b`', '``` a``b` ```'],
    ['', '` `'],
    ['x\ny', '`x y`'],
  ];
  for (const [text, want] of cases) t.equal(code(text), want, JSON.stringify(text));
});

t.test('a huge report stays within 65,536 characters with its marker, every list cut alike', async (t) => {
  const many = (prefix: string, n: number, gathered = 2_000): VerdictList => ({
    tests: Array.from({ length: Math.min(n, gathered) }, (_, i) => ({
      path: ['A rather long suite name for a realistic report', `${prefix} case number ${i} ${'x'.repeat(60)}`],
      url: `${URL}/nodes/${i + 1}`,
    })),
    total: n,
  });
  const f = facts({
    report: { number: 57, url: URL, totals: totals({ passed: 40_000, failed: 60_000 }) },
    newFailures: many('failing', 60_000),
    fixed: many('fixed', 3),
    flaky: many('flaky', 5_000),
  });
  const marker = commentMarker(3, f.branch);
  const text = commentBody(f, MAX_COMMENT_CHARS - markerChars(marker));
  t.ok(text.length + markerChars(marker) <= MAX_COMMENT_CHARS, `${text.length} + marker within the cap`);
  t.ok(text.length > MAX_COMMENT_CHARS * 0.9, 'and uses most of it');
  t.match(text, '#### Fixed (3)\n', 'a short list is whole');
  t.equal((text.match(/fixed case number/g) ?? []).length, 3);
  const failing = (text.match(/failing case number/g) ?? []).length;
  const flaky = (text.match(/flaky case number/g) ?? []).length;
  t.ok(failing > 100 && flaky > 100, `both long lists get a share (${failing}, ${flaky})`);
  t.match(text, `- … and ${60_000 - failing} more in [the report](${URL})`);
  t.match(text, `- … and ${5_000 - flaky} more in [the report](${URL})`);

  const tiny = commentBody(f, 500);
  t.ok(tiny.length <= 500, 'a tiny limit holds too');
});

t.test('a 300-character name is cut, the list goes on', async (t) => {
  const text = body(facts({ newFailures: list('n'.repeat(1_000)) }));
  t.match(text, /`Suite › n+…`/);
  t.notMatch(text, 'n'.repeat(400));
});
