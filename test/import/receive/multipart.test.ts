/**
 * The multipart reader (lib/import/receive/multipart.ts, part-header-guard.ts) at every chunk
 * boundary: real bodies (fields, files, a preamble and an epilogue, a file holding most of a
 * delimiter, a header block at and just past the size and line limits, a delimiter inside a header
 * block, too many parts or fields, a long field, a body cut short) are split at every byte offset,
 * and fed one byte at a time, and every split must give the same fields, files and refusal.
 * PartHeaderGuard, the scanner that measures header blocks as bytes arrive, is checked the same way
 * on its own.
 */
import { Readable } from 'node:stream';
import t from 'tap';
import { DEFAULT_LIMITS, type Limits } from '../../../lib/config.js';
import { ImportFault } from '../../../lib/messages.js';
import { readMultipart } from '../../../lib/import/receive/multipart.js';
import { boundaryOf, MAX_PART_HEADER_BYTES, PartHeaderGuard } from '../../../lib/import/receive/part-header-guard.js';
import { BOUNDARY, field, file, multipart, type Part } from '../../helpers/multipart.js';

type Event = ['field', string, string] | ['file', string, string | null, string | null, string];

interface Outcome {
  events: Event[];
  fault: { code: string; detail: string; details: unknown } | null;
}

async function read(chunks: Buffer[], contentType: string, limits: Limits): Promise<Outcome> {
  const events: Event[] = [];
  try {
    await readMultipart(Readable.from(chunks), contentType, limits, {
      field: (name, value) => void events.push(['field', name, value]),
      async file(name, fileName, stream, mimeType) {
        const data: Buffer[] = [];
        for await (const chunk of stream) data.push(chunk as Buffer);
        events.push(['file', name, fileName ?? null, mimeType ?? null, Buffer.concat(data).toString('latin1')]);
      },
    });
    return { events, fault: null };
  } catch (e) {
    if (!(e instanceof ImportFault)) throw e;
    return { events, fault: { code: e.code, detail: e.message.slice(e.code.length + 2), details: e.msg.details } };
  }
}

/** Every way to cut `body` in two (or only near the `near` offsets, and every `stride` bytes elsewhere). */
function* splits(body: Buffer, near?: number[], stride = 997): Generator<number> {
  for (let at = 1; at < body.length; at++) {
    if (!near || at % stride === 0 || near.some((n) => Math.abs(n - at) <= 80)) yield at;
  }
}

/** Offsets worth cutting at: around every delimiter and every blank line. */
function landmarks(body: Buffer): number[] {
  const out: number[] = [];
  for (const needle of [`--${BOUNDARY}`, '\r\n\r\n']) {
    for (let at = body.indexOf(needle); at >= 0; at = body.indexOf(needle, at + 1)) out.push(at, at + needle.length);
  }
  return out;
}

const ONE_BY_ONE = (body: Buffer): Buffer[] => Array.from(body, (b) => Buffer.from([b]));

interface Case {
  name: string;
  body: Buffer;
  contentType?: string;
  limits?: Partial<Limits>;
  /** The fields and files read, in order; with a refusal, those of the parts before it (a split may give fewer). */
  events: Event[];
  fault?: Outcome['fault'];
  /** Bodies too long to cut at every offset are cut near their delimiters and blank lines. */
  long?: boolean;
}

/** A part whose header block (from the end of the delimiter to the blank line) has exactly `bytes` bytes. */
function partWithHeaderBlock(bytes: number): Part {
  const pad = (n: number): Part => ({
    name: 'file[]',
    filename: 'big.xml',
    value: '<testsuite/>',
    headers: { 'X-Pad': 'p'.repeat(n), 'Content-Type': 'application/xml' },
  });
  const blockOf = (p: Part): number => {
    const { body } = multipart([p]);
    return body.indexOf('\r\n\r\n') + 4 - (2 + BOUNDARY.length);
  };
  const part = pad(0);
  return pad(bytes - blockOf(part));
}

/** A part with `lines` header lines, Content-Type the last. */
function partWithHeaderLines(lines: number): Part {
  const headers: Record<string, string> = {};
  for (let i = 0; i < lines - 2; i++) headers[`X-Line-${i}`] = String(i);
  headers['Content-Type'] = 'text/plain';
  return { name: 'file[]', filename: 'lines.txt', value: 'lines', headers };
}

const binary = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
/** File content holding all but one byte of a delimiter, a delimiter without its CRLF, and one without a dash. */
const nearDelimiter = `<x>\r\n--${BOUNDARY.slice(0, -1)}\r\n.--${BOUNDARY}\r\n-${BOUNDARY}</x>`;
const raw = (s: string): Buffer => Buffer.from(s, 'latin1');
const D = `--${BOUNDARY}`;

const cases: Case[] = [
  {
    name: 'fields and files, with a preamble and an epilogue',
    body: Buffer.concat([
      raw('preamble, ignored\r\n'),
      multipart([
        field('tag[]', 'a'),
        field('merge_containers', 'true'),
        file('file[]', 'results/a.xml', nearDelimiter, 'application/xml'),
        file('attachment[]', 'shot.png', binary, 'image/png'),
        { name: 'file[]', value: 'sent without a file name' },
        file('file[]', 'empty.xml', ''),
        field('tag[]', ''),
        field('tag[]', 'b\r\nc'),
      ]).body,
      raw(`epilogue\r\n${D}\r\nContent-Disposition: form-data; name="late"\r\n\r\nignored\r\n`),
    ]),
    events: [
      ['field', 'tag[]', 'a'],
      ['field', 'merge_containers', 'true'],
      ['file', 'file[]', 'results/a.xml', 'application/xml', nearDelimiter],
      ['file', 'attachment[]', 'shot.png', 'image/png', binary.toString('latin1')],
      ['file', 'file[]', null, 'text/plain', 'sent without a file name'],
      ['file', 'file[]', 'empty.xml', 'application/octet-stream', ''],
      ['field', 'tag[]', ''],
      ['field', 'tag[]', 'b\r\nc'],
    ],
  },
  {
    name: 'a part without Content-Disposition is skipped',
    body: raw(
      `${D}\r\nContent-Type: text/plain\r\n\r\nv\r\n` +
        `${D}\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n${D}--`,
    ),
    events: [['field', 'a', '1']],
  },
  {
    name: 'a delimiter inside a header block cuts that part short',
    body: raw(
      `${D}\r\nContent-Disposition: form-data; name="cut"\r\n` +
        `${D}\r\nContent-Disposition: form-data; name="tag[]"\r\n\r\nv\r\n${D}--\r\n`,
    ),
    events: [['field', 'tag[]', 'v']],
  },
  {
    name: 'a header block exactly at the size limit is read whole',
    body: multipart([field('tag[]', 'a'), partWithHeaderBlock(MAX_PART_HEADER_BYTES), field('tag[]', 'b')]).body,
    events: [
      ['field', 'tag[]', 'a'],
      ['file', 'file[]', 'big.xml', 'application/xml', '<testsuite/>'],
      ['field', 'tag[]', 'b'],
    ],
    long: true,
  },
  {
    name: 'a header block one byte past the size limit is refused',
    body: multipart([field('tag[]', 'a'), partWithHeaderBlock(MAX_PART_HEADER_BYTES + 1), field('tag[]', 'b')]).body,
    events: [['field', 'tag[]', 'a']],
    fault: {
      code: 'multipart_limit_exceeded',
      detail: `A part's headers are longer than ${MAX_PART_HEADER_BYTES} bytes.`,
      details: { limit: 'headerSize', max: MAX_PART_HEADER_BYTES },
    },
    long: true,
  },
  {
    name: 'as many header lines as allowed',
    body: multipart([field('tag[]', 'a'), partWithHeaderLines(5)]).body,
    limits: { maxHeaderPairs: 5 },
    events: [
      ['field', 'tag[]', 'a'],
      ['file', 'file[]', 'lines.txt', 'text/plain', 'lines'],
    ],
  },
  {
    name: 'one header line too many',
    body: multipart([field('tag[]', 'a'), partWithHeaderLines(6), field('tag[]', 'b')]).body,
    limits: { maxHeaderPairs: 5 },
    events: [['field', 'tag[]', 'a']],
    fault: {
      code: 'multipart_limit_exceeded',
      detail: 'A part has more than 5 header lines (TALLY_MAX_HEADER_PAIRS).',
      details: { limit: 'headerPairs', max: 5 },
    },
  },
  ...(['fields', 'parts'] as const).map((what): Case => ({
    name: `too many ${what}`,
    body: multipart([field('a', '1'), file('file[]', 'a.xml', '<x/>'), field('b', '2'), field('c', '3')]).body,
    limits: what === 'fields' ? { maxFields: 2 } : { maxParts: 3 },
    events: [
      ['field', 'a', '1'],
      ['file', 'file[]', 'a.xml', 'application/octet-stream', '<x/>'],
      ['field', 'b', '2'],
    ],
    fault: { code: 'multipart_limit_exceeded', detail: `Too many ${what}.`, details: { limit: what } },
  })),
  {
    name: 'a field of exactly the allowed length',
    body: multipart([field('tag[]', 'x'.repeat(16))]).body,
    limits: { maxFieldBytes: 16 },
    events: [['field', 'tag[]', 'x'.repeat(16)]],
  },
  {
    name: 'a field one byte too long',
    body: multipart([field('a', '1'), field('tag[]', 'x'.repeat(17)), field('b', '2')]).body,
    limits: { maxFieldBytes: 16 },
    events: [['field', 'a', '1']],
    fault: {
      code: 'multipart_limit_exceeded',
      detail: 'The field "tag[]" is longer than 16 bytes.',
      details: { limit: 'fieldSize', field: 'tag[]' },
    },
  },
  {
    name: 'a body cut short inside a file',
    body: multipart([field('a', '1'), file('file[]', 'a.xml', '<testsuite>')]).body.subarray(0, -30),
    events: [['field', 'a', '1']],
    fault: {
      code: 'import_validation_error',
      detail: 'Malformed multipart body: Unexpected end of multipart data.',
      details: undefined,
    },
  },
  {
    name: 'a body without its closing delimiter',
    body: raw(`${D}\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n`),
    events: [],
    fault: {
      code: 'import_validation_error',
      detail: 'Malformed multipart body: Unexpected end of multipart data.',
      details: undefined,
    },
  },
];

/** Whether `got` is what the case expects: the same events (a prefix of them before a refusal), the same fault. */
function agrees(c: Case, got: Outcome): boolean {
  const events = c.fault ? c.events.slice(0, got.events.length) : c.events;
  return JSON.stringify([got.events, got.fault]) === JSON.stringify([events, c.fault ?? null]);
}

for (const c of cases) {
  t.test(`readMultipart: ${c.name}`, async (t) => {
    const contentType = c.contentType ?? `multipart/form-data; boundary=${BOUNDARY}`;
    const limits = { ...DEFAULT_LIMITS, ...c.limits };
    const whole = await read([c.body], contentType, limits);
    t.strictSame(whole, { events: c.fault ? whole.events : c.events, fault: c.fault ?? null }, 'in one chunk');
    if (c.fault) t.ok(agrees(c, whole), 'the events before the refusal are those of the parts before it');
    const bad: string[] = [];
    let tried = 0;
    for (const at of splits(c.body, c.long ? landmarks(c.body) : undefined)) {
      tried++;
      const got = await read([c.body.subarray(0, at), c.body.subarray(at)], contentType, limits);
      if (!agrees(c, got)) bad.push(`${at}: ${JSON.stringify(got).slice(0, 300)}`);
    }
    t.strictSame(bad.slice(0, 5), [], `the same at every one of ${tried} splits`);
    const byByte = await read(ONE_BY_ONE(c.body), contentType, limits);
    t.ok(agrees(c, byByte), `the same one byte at a time: ${JSON.stringify(byByte).slice(0, 300)}`);
  });
}

t.test('PartHeaderGuard at every split', async (t) => {
  for (const c of cases) {
    const maxPairs = c.limits?.maxHeaderPairs ?? DEFAULT_LIMITS.maxHeaderPairs;
    const scan = (chunks: Buffer[]): string | null => {
      const guard = new PartHeaderGuard(BOUNDARY, maxPairs);
      for (const chunk of chunks) {
        const problem = guard.push(chunk);
        if (problem) return `${problem.limit}: ${problem.detail}`;
      }
      return null;
    };
    const header = c.fault?.details as { limit?: string } | undefined;
    const expected =
      header?.limit === 'headerSize' || header?.limit === 'headerPairs' ? `${header.limit}: ${c.fault!.detail}` : null;
    t.equal(scan([c.body]), expected, `${c.name}: in one chunk`);
    const bad: number[] = [];
    for (const at of splits(c.body, c.long ? landmarks(c.body) : undefined, 31))
      if (scan([c.body.subarray(0, at), c.body.subarray(at)]) !== expected) bad.push(at);
    t.strictSame(bad.slice(0, 10), [], `${c.name}: at every split`);
    t.equal(scan(ONE_BY_ONE(c.body)), expected, `${c.name}: one byte at a time`);
  }
});

t.test('PartHeaderGuard: no boundary, nothing to measure', async (t) => {
  const guard = new PartHeaderGuard(null, 1);
  t.equal(guard.push(multipart([partWithHeaderLines(50)]).body), null);
});

t.test('boundaryOf reads the boundary as busboy does', async (t) => {
  const cases: [contentType: string, boundary: string | null][] = [
    ['multipart/form-data; boundary=abc', 'abc'],
    ['multipart/form-data;boundary=abc;charset=utf-8', 'abc'],
    ['multipart/form-data; charset=utf-8; boundary=abc', 'abc'],
    ['multipart/form-data; BOUNDARY=abc', 'abc'],
    ['multipart/form-data; boundary = abc', 'abc'],
    ['multipart/form-data; boundary="a b;c"', 'a b;c'],
    ['multipart/form-data; boundary="a\\"b"', 'a"b'],
    ['multipart/form-data; boundary=', ''],
    ['multipart/form-data', null],
    ['multipart/form-data; xboundary=abc', null],
  ];
  for (const [contentType, boundary] of cases) t.equal(boundaryOf(contentType), boundary, contentType);
  // Busboy finds the parts where boundaryOf says they are.
  for (const [contentType, boundary] of cases.slice(0, 7)) {
    const body = multipart([field('tag[]', 'v')], boundary!).body;
    const got = await read([body], contentType, DEFAULT_LIMITS);
    t.strictSame(got, { events: [['field', 'tag[]', 'v']], fault: null }, `busboy agrees: ${contentType}`);
  }
});

t.test('a Content-Type without a boundary is refused before the body is read', async (t) => {
  const got = await read([multipart([field('a', '1')]).body], 'multipart/form-data', DEFAULT_LIMITS);
  t.strictSame(got, {
    events: [],
    fault: {
      code: 'import_validation_error',
      detail: 'Malformed multipart Content-Type: Multipart: Boundary not found.',
      details: undefined,
    },
  });
});
