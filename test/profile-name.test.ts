/** What a profile name may be, and what is said about one that may not. */
import t from 'tap';
import { MAX_PROFILE_NAME, checkProfileName } from '../lib/profile-name.js';

const cases: [string, unknown, { name: string } | { problem: RegExp }][] = [
  ['a plain name', 'nightly', { name: 'nightly' }],
  ['spaces at either end are dropped', '  android  ', { name: 'android' }],
  ['inner spaces and any script stay', 'web — ✓ 日本', { name: 'web — ✓ 日本' }],
  ['100 characters, counted as people count them', '🚀'.repeat(MAX_PROFILE_NAME), { name: '🚀'.repeat(100) }],
  ['101 characters', 'x'.repeat(101), { problem: /101 characters/ }],
  ['empty', '', { problem: /empty/ }],
  ['only spaces', ' \t ', { problem: /empty/ }],
  ['a line break inside', 'a\nb', { problem: /control character/ }],
  ['a C1 control', 'a\u0085b', { problem: /control character/ }],
  ['a line separator', 'a\u2028b', { problem: /control character/ }],
  ['a number', 4390, { problem: /not text/ }],
  ['nothing', undefined, { problem: /not text/ }],
];

for (const [what, raw, expected] of cases) {
  const got = checkProfileName(raw);
  if ('name' in expected) t.strictSame(got, expected, what);
  else t.match(got, expected, what);
}
