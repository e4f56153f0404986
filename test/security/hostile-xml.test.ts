/**
 * Hostile XML result files, sent to a started Tally (both stores): entity bombs, external entities,
 * deep nesting, huge attributes, broken and non-UTF-8 encodings.
 */
import t from 'tap';
import http from 'node:http';
import iconv from 'iconv-lite';
import { MAX_XML_BUFFER_CHARS, MAX_XML_DEPTH, MAX_XML_TAG_CHARS } from '../../lib/formatter/kit/xml.js';
import { startTally, storeKinds, type Harness } from '../helpers/tally.js';
import { peakRssDuring } from './craft.js';
import { allContainers, hostile, importPath, streamRequest, upload, within } from './expect.js';

const MiB = 1024 * 1024;

const billionLaughs = (use: boolean): string =>
  '<?xml version="1.0"?>\n<!DOCTYPE testsuites [\n <!ENTITY lol "lol">\n' +
  Array.from({ length: 9 }, (_, i) => ` <!ENTITY lol${i + 1} "${`&lol${i === 0 ? '' : i};`.repeat(10)}">`).join('\n') +
  `\n]>\n` +
  `<testsuites><testsuite name="laughs"><testcase name="${use ? '&lol9;' : 'plain'}"/><testcase ` +
  `name="second"/></testsuite></testsuites>\n`;

/** A well-formed JUnit file of about `bytes`, to be cut. */
const junitBody = (bytes: number): string => {
  const cases: string[] = [];
  for (let n = 0; n * 60 < bytes; n++)
    cases.push(`<testcase name="case ${n}" classname="c"><system-out>x</system-out></testcase>`);
  return `<?xml version="1.0"?>\n<testsuites><testsuite name="s">${cases.join('')}</testsuite></testsuites>\n`;
};

/** Titles of every stored container of a report, joined: what a reader could ever see. */
async function storedText(h: Harness, reportId: number): Promise<string> {
  return JSON.stringify(await allContainers(h, reportId));
}

for (const kind of storeKinds(t)) {
  t.test(`hostile XML (${kind} store)`, async (t) => {
    const h = await startTally(t, { store: kind });
    // Anything that fetches an external entity or DTD would knock here.
    const knocks: string[] = [];
    const trap = http.createServer((req, res) => {
      knocks.push(req.url ?? '');
      res.end('<!ENTITY x "FETCHED-BY-TALLY">');
    });
    await new Promise<void>((resolve) => trap.listen(0, '127.0.0.1', resolve));
    t.teardown(() => new Promise<void>((resolve) => trap.close(() => resolve())));
    const trapUrl = `http://127.0.0.1:${(trap.address() as { port: number }).port}`;

    // Guards: parseXml (lib/formatter/kit/xml.ts) gives sax `strictEntities: true` and never fills parser.ENTITIES
    // from the DOCTYPE: a reference to a DTD entity is "Invalid character entity", never expanded.
    await hostile(
      t,
      h,
      'billion laughs: nine levels of internal entities, referenced',
      async (t) => {
        const { value, growth } = await peakRssDuring(() =>
          upload(h, 'laughs.xml', billionLaughs(true), '/import/junit'),
        );
        t.ok(growth < 50 * MiB, `RSS grew by ${(growth / MiB).toFixed(1)} MiB`);
        t.notMatch(value.text, /lollol/, 'no expanded text in the answer');
        return value;
      },
      { status: 422, code: 'report_validation_error', severity: 'error' },
      (t, reply) =>
        t.match(
          reply.json.messages.find((m: any) => m.code === 'report_validation_error').message,
          /Invalid character entity/,
        ),
    );
    // Guards: Uploads.addUpload (lib/import/uploads.ts) destroys the blob stream *with* the parse error; without
    // one, a blob stream that tee() had already ended left the store's pipeline waiting, and the import hung.
    for (const [name, content] of [
      [
        'a 300 KB JUnit file cut before its closing tags (a CI job that died mid-write)',
        junitBody(300 * 1024).slice(0, -40),
      ],
      ['a 300 KB JUnit file cut inside an attribute', `${junitBody(300 * 1024).slice(0, -2000)}<testcase name="cut`],
    ] as const) {
      await hostile(t, h, name, () => within(10_000, upload(h, 'cut.xml', content, '/import/junit')), {
        status: 422,
        code: 'report_validation_error',
        severity: 'error',
      });
    }
    await hostile(
      t,
      h,
      'billion laughs declared but not referenced: the DOCTYPE is skipped, nothing expanded',
      () => upload(h, 'laughs.xml', billionLaughs(false)),
      { status: 201, code: 'specify_formatter', severity: 'warning' },
      async (t, reply) => {
        t.equal(reply.json.report.totals.tests, 2);
        t.notMatch(await storedText(h, reply.json.report_id), /lollol/, 'no expanded text stored');
      },
      { blobsAdded: 1 },
    );

    // Guards: the same: sax has no DTD processing and no I/O; xml.ts never resolves a SYSTEM id. The trap
    // server must see no request, and no /etc/passwd content may appear in the answer or the stored report.
    const xxe: [string, string, number, string][] = [
      [
        'an external entity to file:///etc/passwd in an attribute',
        `<?xml version="1.0"?><!DOCTYPE t [<!ENTITY x SYSTEM "file:///etc/passwd">]><testsuites><testsuite name="&x;"><testcase name="a"/></testsuite></testsuites>`,
        422,
        'report_validation_error',
      ],
      [
        'an external entity to an http URL in text',
        `<?xml version="1.0"?><!DOCTYPE t [<!ENTITY x SYSTEM "${trapUrl}/entity">]><testsuites><testsuite ` +
          `name="s"><testcase name="a"><system-out>&x;</system-out></testcase></testsuite></testsuites>`,
        422,
        'report_validation_error',
      ],
      [
        'an external DTD by http URL',
        `<?xml version="1.0"?><!DOCTYPE testsuites SYSTEM "${trapUrl}/doc.dtd"><testsuites><testsuite ` +
          `name="s"><testcase name="a"/></testsuite></testsuites>`,
        201,
        'specify_formatter',
      ],
      [
        'a parameter entity by http URL',
        `<?xml version="1.0"?><!DOCTYPE t [<!ENTITY % p SYSTEM "${trapUrl}/param.dtd"> ` +
          `%p;]><testsuites><testsuite name="s"><testcase name="a"/></testsuite></testsuites>`,
        201,
        'specify_formatter',
      ],
    ];
    for (const [what, doc, status, code] of xxe) {
      await hostile(
        t,
        h,
        `XXE: ${what}`,
        () => upload(h, 'xxe.xml', doc),
        { status, code, severity: status === 201 ? 'warning' : 'error' },
        async (t, reply) => {
          await new Promise((r) => setTimeout(r, 50));
          t.same(knocks, [], 'nothing was fetched');
          t.notMatch(reply.text, /root:x?:0:0|FETCHED-BY-TALLY/, 'nothing read into the answer');
          if (reply.json.report_id)
            t.notMatch(
              await storedText(h, reply.json.report_id),
              /root:x?:0:0|FETCHED-BY-TALLY/,
              'nothing read into the stored report',
            );
        },
        { blobsAdded: status === 201 ? 1 : 0 },
      );
    }

    // Guards: the depth limit in parseXml (lib/formatter/kit/xml.ts, `if (++depth > MAX_XML_DEPTH) throw new
    // FormatError(…)` in onopentag), added for this suite: without it a closed 100,000-deep file is stored as
    // 100,000 nested suites, and an unclosed one fails only after the whole file was read.
    const N = 100_000;
    await hostile(
      t,
      h,
      `nesting ${N} deep (closed): refused at ${MAX_XML_DEPTH} levels`,
      async (t) => {
        const doc =
          '<?xml version="1.0"?><testsuites>' +
          '<testsuite name="d">'.repeat(N) +
          '<testcase name="t"/>' +
          '</testsuite>'.repeat(N) +
          '</testsuites>';
        const { value, growth } = await peakRssDuring(() =>
          within(10_000, upload(h, 'deep.xml', doc, '/import/junit')),
        );
        t.ok(growth < 100 * MiB, `RSS grew by ${(growth / MiB).toFixed(1)} MiB`);
        return value;
      },
      { status: 422, code: 'report_validation_error', severity: 'error' },
      (t, reply) =>
        t.match(
          reply.json.messages.find((m: any) => m.code === 'report_validation_error').message,
          new RegExp(`nested deeper than ${MAX_XML_DEPTH}`),
        ),
    );
    await hostile(
      t,
      h,
      `nesting ${N} deep (<testsuite> × ${N}, never closed)`,
      () => within(10_000, upload(h, 'deep.xml', '<?xml version="1.0"?>' + '<testsuite>'.repeat(N), '/import/junit')),
      { status: 422, code: 'report_validation_error', severity: 'error' },
      (t, reply) =>
        t.match(
          reply.json.messages.find((m: any) => m.code === 'report_validation_error').message,
          new RegExp(`nested deeper than ${MAX_XML_DEPTH}`),
        ),
    );

    // Guards: XmlTokenizer.attributes refuses a value over MAX_XML_BUFFER_CHARS even inside a tag under the tag limit.
    await hostile(
      t,
      h,
      `an attribute value of ${MAX_XML_BUFFER_CHARS + 1} characters in a complete tag`,
      () =>
        upload(
          h,
          'long-value.xml',
          `<?xml version="1.0"?><testsuites><testsuite name="${'v'.repeat(MAX_XML_BUFFER_CHARS + 1)}"><testcase ` +
            `name="a"/></testsuite></testsuites>`,
          '/import/junit',
        ),
      { status: 422, code: 'report_validation_error', severity: 'error' },
      (t, reply) =>
        t.match(
          reply.json.messages.find((m: any) => m.code === 'report_validation_error').message,
          new RegExp(`attribute value longer than ${MAX_XML_BUFFER_CHARS} characters`),
        ),
    );

    // Guards: the tokenizer (lib/formatter/kit/xml-tokenizer.ts) waits for the end of a start tag only up to
    // MAX_XML_TAG_CHARS (waitForTag); an attribute value that never ends is refused there, not held.
    await t.test('a 50 MB attribute value, streamed: refused early, never held', async (t) => {
      const before = await h.leftovers();
      const fill = Buffer.alloc(64 * 1024, 0x61);
      const { value, growth } = await peakRssDuring(() =>
        streamRequest(
          h,
          importPath(h),
          { 'content-type': 'application/xml' },
          (async function* () {
            yield Buffer.from('<?xml version="1.0"?><testsuites><testsuite name="');
            for (let sent = 0; sent < 50 * MiB; sent += fill.length) yield fill;
            yield Buffer.from('"><testcase name="a"/></testsuite></testsuites>');
          })(),
        ),
      );
      const { reply, bytesRead } = value;
      t.equal(reply.status, 422, 'status 422', { body: reply.text.slice(0, 600) });
      const error = reply.json?.messages?.find((m: any) => m.severity === 'error');
      t.equal(error?.code, 'report_validation_error');
      t.match(error?.message, new RegExp(`more than ${MAX_XML_TAG_CHARS} characters of attributes`));
      t.ok(
        bytesRead < 20 * MiB,
        `answered after reading ${(bytesRead / MiB).toFixed(1)} MiB of 50 (limit ${MAX_XML_BUFFER_CHARS} characters)`,
      );
      t.ok(growth < 50 * MiB, `RSS grew by ${(growth / MiB).toFixed(1)} MiB`);
      const after = await h.leftovers();
      t.same(after.tmp, []);
      t.equal(after.blobs, before.blobs, 'no blob left behind');
      t.equal((await h.send({ method: 'GET', path: '/healthz', noKey: true })).status, 200);
    });

    // Guards: the per-tag cap in parseXml (lib/formatter/kit/xml.ts, `parser.onattribute`: `if (tagChars >
    // MAX_XML_TAG_CHARS) throw new FormatError(…)`), added for this suite: each attribute stays under sax's
    // 64 KiB, but 800 of them would be 48 MB held in one tag.
    await t.test('800 attributes of 60 KB in one start tag: refused', async (t) => {
      const before = await h.leftovers();
      const value60k = Buffer.alloc(60_000, 0x62);
      const { value, growth } = await peakRssDuring(() =>
        streamRequest(
          h,
          importPath(h),
          { 'content-type': 'application/xml' },
          (async function* () {
            yield Buffer.from('<?xml version="1.0"?><testsuites><testsuite name="s"');
            for (let i = 0; i < 800; i++) {
              yield Buffer.from(` a${i}="`);
              yield value60k;
              yield Buffer.from('"');
            }
            yield Buffer.from('><testcase name="a"/></testsuite></testsuites>');
          })(),
        ),
      );
      const { reply, bytesRead } = value;
      t.equal(reply.status, 422, 'status 422', { body: reply.text.slice(0, 600) });
      const error = reply.json?.messages?.find((m: any) => m.severity === 'error');
      t.equal(error?.code, 'report_validation_error');
      t.equal(error?.severity, 'error');
      t.match(error?.message, new RegExp(`more than ${MAX_XML_TAG_CHARS} characters of attributes`));
      t.ok(bytesRead < 20 * MiB, `answered after reading ${(bytesRead / MiB).toFixed(1)} MiB of 48`);
      t.ok(growth < 50 * MiB, `RSS grew by ${(growth / MiB).toFixed(1)} MiB`);
      const after = await h.leftovers();
      t.same(after.tmp, []);
      t.equal(after.blobs, before.blobs, 'no blob left behind');
      t.equal((await h.send({ method: 'GET', path: '/healthz', noKey: true })).status, 200);
    });

    // Decision: invalid UTF-8 imports, each bad byte read as U+FFFD. Guards: decodeText in lib/formatter/encoding.ts
    // decodes with iconv-lite, which replaces (a strict decoder would throw mid-stream: an internal_error).
    await hostile(
      t,
      h,
      'invalid UTF-8 bytes in a title: imported with U+FFFD',
      () =>
        upload(
          h,
          'bad-utf8.xml',
          Buffer.concat([
            Buffer.from('<?xml version="1.0" encoding="UTF-8"?><testsuites><testsuite name="s"><testcase name="caf'),
            Buffer.from([0xc3, 0x28, 0xff, 0xfe, 0xed, 0xa0, 0x80]),
            Buffer.from('"/><testcase name="b"/></testsuite></testsuites>'),
          ]),
        ),
      { status: 201, code: 'specify_formatter', severity: 'warning' },
      async (t, reply) => {
        const titles = (await allContainers(h, reply.json.report_id)).map((c) => c.title);
        const bad = titles.find((x: string) => x.startsWith('caf'));
        t.ok(bad && bad.includes('\uFFFD'), `stored as ${JSON.stringify(bad)}`);
        t.notOk(/[\uD800-\uDFFF]/.test(bad ?? ''), 'no lone surrogate stored');
      },
      { blobsAdded: 1 },
    );

    // Guards: guessEncoding in lib/formatter/encoding.ts (the BOM, `<` next to a NUL, then the declared encoding).
    const title = 'Grüße – 日本語 ✓';
    const doc = (encoding: string, name: string): string =>
      `<?xml version="1.0" encoding="${encoding}"?>\n` +
      `<testsuites><testsuite name="${name}"><testcase name="${name} 1"/></testsuite></testsuites>\n`;
    const encoded: [string, Buffer, string][] = [
      [
        'UTF-16LE with a BOM',
        Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode(doc('UTF-16', title), 'utf16le')]),
        title,
      ],
      [
        'UTF-16BE with a BOM',
        Buffer.concat([Buffer.from([0xfe, 0xff]), iconv.encode(doc('UTF-16', title), 'utf16be')]),
        title,
      ],
      ['UTF-16LE without a BOM', iconv.encode(doc('UTF-16LE', title), 'utf16le'), title],
      ['ISO-8859-1', iconv.encode(doc('ISO-8859-1', 'Grüße à la café, ½ ¤ ÿ'), 'latin1'), 'Grüße à la café, ½ ¤ ÿ'],
    ];
    for (const [what, bytes, expected] of encoded) {
      await hostile(
        t,
        h,
        `a ${what} file with its declaration`,
        () => upload(h, 'encoded.xml', bytes),
        { status: 201, code: 'specify_formatter', severity: 'warning' },
        async (t, reply) => {
          t.equal(reply.json.report.totals.tests, 1);
          const titles = (await allContainers(h, reply.json.report_id)).map((c) => c.title);
          t.ok(titles.includes(expected), `suite title ${JSON.stringify(expected)}`, { titles });
          t.ok(titles.includes(`${expected} 1`), 'test title too', { titles });
        },
        { blobsAdded: 1 },
      );
    }
  });
}
