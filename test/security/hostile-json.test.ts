/**
 * Hostile JSON result files, sent to a started Tally (both stores): deep nesting, numbers past any
 * double, huge strings and number literals. The Jest formatter reads them (named in the path).
 */
import t from 'tap';
import { MAX_JSON_NUMBER_CHARS, MAX_JSON_STRING_CHARS } from '../../lib/formatter/kit/json.js';
import { startTally, storeKinds } from '../helpers/tally.js';
import { peakMemoryDuring, peakRssDuring } from './craft.js';
import { allContainers, hostile, importPath, streamRequest, upload } from './expect.js';

const MiB = 1024 * 1024;

/** A Jest report with one failed test; `failure` is the raw JSON of its failureMessages array content. */
function jestReport(o: { duration?: string; startTime?: string; failure?: string } = {}): string {
  return (
    `{"numTotalTests":1,"numFailedTests":1,"numPassedTests":0,"testResults":[{"name":"/repo/a.test.js","status":"` +
    `failed",` +
    `"startTime":${o.startTime ?? '1700000000000'},"endTime":1700000001000,"assertionResults":[` +
    `{"ancestorTitles":[],"title":"the test","fullName":"the ` +
    `test","status":"failed","duration":${o.duration ?? '12'},"failureMessages":[${o.failure ?? '"Error: boom"'}]` +
    `}]}]}`
  );
}

for (const kind of storeKinds(t)) {
  t.test(`hostile JSON (${kind} store)`, async (t) => {
    const h = await startTally(t, { store: kind });
    const N = 100_000;

    // Guards: MAX_DEPTH in lib/formatter/kit/json.ts (Walker.start: `if (this.frames.length + this.building.length
    // >= MAX_DEPTH) throw new FormatError(…)`), inside a value a formatter takes whole and on the walked path.
    for (const [where, doc] of [
      ['inside a value taken whole', jestReport({ failure: '"x",' + '['.repeat(N) + ']'.repeat(N) })],
      ['on the walked path', `{"numTotalTests":1,"numFailedTests":1,"testResults":${'['.repeat(N)}${']'.repeat(N)}}`],
      ['never closed', `{"numTotalTests":1,"numFailedTests":1,"testResults":${'['.repeat(N)}`],
    ] as const) {
      await hostile(
        t,
        h,
        `nesting ${N} deep, ${where}`,
        async (t) => {
          const { value, growth } = await peakRssDuring(() => upload(h, 'deep.json', doc, '/import/jest'));
          t.ok(growth < 50 * MiB, `RSS grew by ${(growth / MiB).toFixed(1)} MiB`);
          return value;
        },
        { status: 422, code: 'report_validation_error', severity: 'error' },
        (t, reply) =>
          t.match(
            reply.json.messages.find((m: any) => m.code === 'report_validation_error').message,
            /nested deeper than 512 levels/,
          ),
      );
    }

    // Decision: a number past any double is read as JSON.parse reads it (±Infinity, or 0), and a formatter drops
    // what is not a usable value. Guards: Number() in json.ts (never throws, no BigInt) and the finiteness checks
    // in formatters/jest/parse.ts `num()` and lib/formatter/kit/time.ts `fromEpochMs()`: without both, a start
    // time of 1e999999 reaches `new Date(Infinity).toISOString()`, a RangeError answered as internal_error.
    for (const [what, duration, startTime] of [
      ['1e999999 as a duration and a start time', '1e999999', '1e999999'],
      ['10,000-digit integers', '9'.repeat(10_000), '1' + '0'.repeat(9_999)],
      [
        'a 10,000-digit negative fraction with a huge negative exponent',
        '-' + '9'.repeat(10_000) + '.5e-999999',
        '-1e999999',
      ],
    ] as const) {
      await hostile(
        t,
        h,
        `huge numbers: ${what}`,
        () => upload(h, 'numbers.json', jestReport({ duration, startTime }), '/import'),
        { status: 201, code: 'specify_formatter', severity: 'warning' },
        async (t, reply) => {
          t.equal(reply.json.report.totals.tests, 1, 'the test was stored');
          const test = (await allContainers(h, reply.json.report_id)).find((c) => c.type === 'test');
          t.ok(
            test.duration_ms === null || Number.isFinite(test.duration_ms),
            `duration stored as ${test.duration_ms}`,
          );
          t.notMatch(JSON.stringify(test), /Infinity|NaN/, 'no Infinity or NaN stored');
        },
        { blobsAdded: 1 },
      );
    }

    // Guards: JsonLengthGuard in lib/formatter/kit/json.ts (`if (++this.number > this.maxNumber) throw new
    // FormatError(…)`), added for this suite: the tokenizer would pack a 5 MB literal whole and read it as Infinity.
    await hostile(
      t,
      h,
      'a number literal of 5 MB',
      async (t) => {
        const { value, growth } = await peakRssDuring(() =>
          upload(h, 'number.json', jestReport({ duration: '7'.repeat(5 * MiB) }), '/import/jest'),
        );
        t.ok(growth < 100 * MiB, `RSS grew by ${(growth / MiB).toFixed(1)} MiB`);
        return value;
      },
      { status: 422, code: 'report_validation_error', severity: 'error' },
      (t, reply) =>
        t.match(
          reply.json.messages.find((m: any) => m.code === 'report_validation_error').message,
          new RegExp(`number is longer than ${MAX_JSON_NUMBER_CHARS}`),
        ),
    );

    // Guards: JsonLengthGuard in lib/formatter/kit/json.ts (`await feed(lengths.push(chunk))` in parseJson), added
    // for this suite: the tokenizer packs every string into one token, so the text it is fed is cut first: a
    // string keeps MAX_JSON_STRING_CHARS characters and a marker. Titles are not capped anywhere else, so the
    // stored title shows where json.ts cut.
    await hostile(
      t,
      h,
      'a test title of 6 MB: cut at the JSON string cap',
      () =>
        upload(
          h,
          'title.json',
          jestReport().replace('"title":"the test"', `"title":"${'t'.repeat(6 * MiB)}"`),
          '/import/jest',
        ),
      { status: 201, code: 'report_contains_old_date', severity: 'notice' },
      async (t, reply) => {
        const test = (await allContainers(h, reply.json.report_id)).find((c) => c.type === 'test');
        const title: string = test?.title ?? '';
        t.ok(title.length <= MAX_JSON_STRING_CHARS + 100, `the stored title has ${title.length} characters`);
        t.match(
          title.slice(-60),
          new RegExp(`truncated by Tally at ${MAX_JSON_STRING_CHARS} characters`),
          'cut by the JSON string cap',
        );
      },
      { blobsAdded: 1 },
    );

    // Guards: the same cut, for memory: a 50 MB string streamed into failureMessages. Memory is judged on the live
    // heap (after a full GC, sampled every 50 ms; RSS is reported): ~8 MiB with the cut, ~60 MiB without it.
    await t.test('a 50 MB string value, streamed: imported, memory bounded', async (t) => {
      const before = await h.leftovers();
      const [head, tail] = jestReport({ failure: '"Error: @@"' }).split('@@') as [string, string];
      const fill = Buffer.alloc(64 * 1024, 0x61);
      const { value, liveGrowth, rssGrowth, ms } = await peakMemoryDuring(() =>
        streamRequest(
          h,
          importPath(h, '/import/jest'),
          { 'content-type': 'application/json' },
          (async function* () {
            yield Buffer.from(head);
            for (let sent = 0; sent < 50 * MiB; sent += fill.length) yield fill;
            yield Buffer.from(tail);
          })(),
        ),
      );
      const { reply } = value;
      t.equal(reply.status, 201, 'imported', { body: reply.text.slice(0, 600) });
      t.ok(
        reply.json.messages.some((m: any) => m.code === 'parameter_file_empty' && m.severity === 'warning'),
        'answered with its coded warnings (raw body)',
      );
      t.ok(
        liveGrowth < 30 * MiB,
        `the live heap grew by ${(liveGrowth / MiB).toFixed(1)} MiB (the string alone is 50 MiB); RSS by ` +
          `${(rssGrowth / MiB).toFixed(1)} MiB; ${ms} ms`,
      );
      const test = (await allContainers(h, reply.json.report_id)).find((c) => c.type === 'test');
      t.ok((test?.failure?.message ?? '').length < 2 * MiB, 'the stored failure text is capped');
      const after = await h.leftovers();
      t.same(after.tmp, []);
      t.equal(after.blobs, before.blobs + 1, 'only the upload was stored');
      t.equal((await h.send({ method: 'GET', path: '/healthz', noKey: true })).status, 200);
    });
  });
}
