/**
 * One HTTP case per message code of SPEC part 7 (and Tally's own codes), against a started server:
 * code, severity and status are asserted, and a failed import leaves no temp file and no blob.
 */
import t from 'tap';
import Database from 'better-sqlite3';
import path from 'node:path';
import { junit } from '../../formatters/junit/index.js';
import { trx } from '../../formatters/trx/index.js';
import { CATALOGUE } from '../../lib/messages.js';
import type { Head } from '../../lib/formatter/api.js';
import { startTally, storeKinds, type Harness, type RawRequest, type StoreKind } from '../helpers/tally.js';
import { field, file, multipart, type Part } from '../helpers/multipart.js';
import { junitXml } from '../helpers/junit.js';
import { zipOf } from '../helpers/zip.js';

// A second, real formatter that claims JUnit files named tie*.xml, so that two formatters vote equally.
const twin = {
  ...junit,
  key: 'junit-twin',
  title: 'A second formatter that claims JUnit',
  sniff: (head: Head) => (head.fileName.startsWith('tie') ? junit.sniff(head) : 0),
};
const throwing = {
  ...junit,
  key: 'throws',
  title: 'A formatter with a bug',
  // Below the match threshold: never detected, only used when named in the path.
  sniff: () => 0.2,
  parse: async () => {
    throw new TypeError('a bug in a formatter');
  },
};

interface Case {
  name: string;
  code: string | null;
  severity: 'error' | 'warning' | 'notice';
  status: number;
  /** The code must not be among the messages (a flag hid it). */
  absent?: boolean;
  /** Cases that inject a fault with SQLite itself; MongoDB's store faults are tested in test/faults. */
  only?: StoreKind;
  request(h: Harness): Promise<RawRequest> | RawRequest;
  check?(t: any, reply: any, h: Harness): Promise<void> | void;
}

const xml = junitXml();
const form = (parts: Part[]) => {
  const m = multipart(parts);
  return { body: m.body, headers: { 'content-type': m.contentType } };
};
const importPath = (h: Harness, suffix = '/import/junit', profile = h.profileId) =>
  `/api/v2/profile/${profile}${suffix}`;
const post = (h: Harness, parts: Part[], suffix?: string, query = ''): RawRequest => ({
  path: importPath(h, suffix) + query,
  ...form(parts),
});
const oldDate = '2001-01-01T00:00:00';

const cases: Case[] = [
  // 7.1 errors
  {
    name: 'two formatters claim the file',
    code: 'multiple_formatter_match',
    severity: 'error',
    status: 422,
    request: (h) => post(h, [file('file[]', 'tie.xml', xml)], '/import'),
  },
  {
    name: 'no file matches a formatter',
    code: 'zero_files_matched_formatters',
    severity: 'error',
    status: 422,
    request: (h) => post(h, [file('file[]', 'a.txt', 'plain words')], '/import'),
  },
  {
    name: 'a JUnit file sent to the TRX formatter',
    code: 'zero_files_matched_formatters',
    severity: 'error',
    status: 422,
    request: (h) => post(h, [file('file[]', 'TEST-a.xml', xml)], '/import/trx'),
    check: (t, reply) => {
      const m = reply.messages.find((m: any) => m.code === 'zero_files_matched_formatters');
      t.match(m.message, /TEST-a\.xml does not look like trx \(.*\); its content looks like junit \(.*\): send it to /);
      t.match(m.message, /\/import\/junit, or to \/import to have the format detected\.$/);
      t.notMatch(m.message, /name the formatter in the path/, 'no advice to do what it did');
      t.same(m.details.refused, [{ file: 'TEST-a.xml', looks_like: ['junit'] }]);
    },
  },
  {
    name: 'a JUnit raw body sent to the TRX formatter',
    code: 'zero_files_matched_formatters',
    severity: 'error',
    status: 422,
    request: (h) => ({ path: importPath(h, '/import/trx'), headers: { 'content-type': 'application/xml' }, body: xml }),
    check: (t, reply) => {
      const m = reply.messages.find((m: any) => m.code === 'zero_files_matched_formatters');
      t.match(m.message, /request-body does not look like trx .*: send it to \/import\/junit/);
    },
  },
  {
    name: 'unknown formatter key',
    code: 'invalid_formatter',
    severity: 'error',
    status: 400,
    request: (h) => post(h, [file('file[]', 'a.xml', xml)], '/import/nosuch'),
  },
  {
    name: 'raw body request with an empty body',
    code: 'missing_file_and_body',
    severity: 'error',
    status: 400,
    request: (h) => ({ path: importPath(h), headers: { 'content-type': 'application/xml' }, body: '' }),
  },
  {
    name: 'multipart form without file[]',
    code: 'import_missing_file',
    severity: 'error',
    status: 400,
    request: (h) => post(h, [field('tag[]', 'a:b')]),
  },
  {
    name: 'raw body of a type no formatter takes',
    code: 'import_content_type_error',
    severity: 'error',
    status: 415,
    request: (h) => ({ path: importPath(h, '/import'), headers: { 'content-type': 'text/plain' }, body: 'hello' }),
  },
  {
    name: 'no content type at all',
    code: 'import_missing_media_type',
    severity: 'error',
    status: 415,
    request: (h) => ({ path: importPath(h), body: xml }),
  },
  {
    name: 'the import record cannot be created',
    code: 'import_generating_error',
    only: 'embedded',
    severity: 'error',
    status: 500,
    request: (h) => {
      failInserts(h, 'imports');
      return post(h, [file('file[]', 'a.xml', xml)]);
    },
    check: (t, reply, h) => {
      t.match(
        reply.messages.find((m: any) => m.code === 'import_generating_error').at,
        /^\d{4}-\d\d-\d\dT/,
        'fault messages carry a timestamp',
      );
      clearFault(h, 'imports');
    },
  },
  {
    name: 'a flag with a value that is not a boolean',
    code: 'import_validation_error',
    severity: 'error',
    status: 400,
    request: (h) => post(h, [field('merge_containers', 'perhaps'), file('file[]', 'a.xml', xml)]),
  },
  {
    name: 'a result file that is not well-formed',
    code: 'report_validation_error',
    severity: 'error',
    status: 422,
    request: (h) => post(h, [file('file[]', 'a.xml', '<?xml version="1.0"?><testsuite name="x"><testcase name="y">')]),
    check: (t, reply) => {
      t.equal(reply.messages.find((m: any) => m.code === 'report_validation_error').file, 'a.xml');
    },
  },
  {
    name: 'only empty results',
    code: 'empty_import_after_processing',
    severity: 'error',
    status: 422,
    request: (h) => post(h, [file('file[]', 'a.xml', junitXml({ cases: [] }))]),
  },
  {
    name: 'empty results with ignore_empty_import',
    code: 'empty_import_after_processing',
    severity: 'notice',
    status: 201,
    request: (h) => post(h, [file('file[]', 'a.xml', junitXml({ cases: [] })), field('ignore_empty_import', 'true')]),
  },
  {
    name: 'a zip without files',
    code: 'zero_files_after_unzipping',
    severity: 'error',
    status: 422,
    request: async (h) => post(h, [file('file[]', 'r.zip', await zipOf([{ name: '__MACOSX/._a.xml', data: 'x' }]))]),
  },
  // 7.2 warnings
  {
    name: 'an attachment reference that is not attached',
    code: 'failed_to_attach_asset',
    severity: 'warning',
    status: 201,
    request: (h) =>
      post(h, [
        file('file[]', 'a.xml', junitXml({ cases: [{ name: 'x', out: '[[ATTACHMENT|/ci/shots/missing.png]]' }] })),
      ]),
  },
  {
    name: 'an unmatched file next to a result',
    code: 'files_moved_to_attachments',
    severity: 'warning',
    status: 201,
    request: (h) => post(h, [file('file[]', 'a.xml', xml), file('file[]', 'notes.txt', 'words')]),
  },
  {
    name: 'suppress_files_moved lowers it',
    code: 'files_moved_to_attachments',
    severity: 'notice',
    status: 201,
    request: (h) =>
      post(h, [
        file('file[]', 'a.xml', xml),
        file('file[]', 'notes.txt', 'words'),
        field('suppress_files_moved', 'true'),
      ]),
  },
  {
    name: 'XML without declaration',
    code: 'invalid_file_mime_type',
    severity: 'warning',
    status: 201,
    request: (h) => post(h, [file('file[]', 'a.xml', junitXml({ declaration: false }))]),
  },
  {
    name: 'XML named like a picture',
    code: 'invalid_file_mime_type',
    severity: 'warning',
    status: 201,
    request: (h) => post(h, [file('file[]', 'a.png', xml)]),
  },
  {
    name: 'ignore_invalid_file_type hides it',
    code: 'invalid_file_mime_type',
    severity: 'warning',
    status: 201,
    absent: true,
    request: (h) => post(h, [file('file[]', 'a.png', xml), field('ignore_invalid_file_type', 'True')]),
  },
  {
    name: 'a raw-body import',
    code: 'parameter_file_empty',
    severity: 'warning',
    status: 201,
    request: (h) => ({ path: importPath(h), headers: { 'content-type': 'application/xml' }, body: xml }),
  },
  {
    name: 'a raw-body import is not multipart',
    code: 'invalid_content_type',
    severity: 'warning',
    status: 201,
    request: (h) => ({ path: importPath(h), headers: { 'content-type': 'text/xml' }, body: xml }),
  },
  {
    name: 'unknown parameters',
    code: null,
    severity: 'warning',
    status: 201,
    request: (h) => post(h, [file('file[]', 'a.xml', xml), field('colour', 'blue')], undefined, '?speed=fast'),
    check: (t, reply) => {
      t.same(reply.messages.find((m: any) => m.code === null).details.parameters.sort(), ['colour', 'speed']);
    },
  },
  {
    name: 'ignore_unused_parameters hides it',
    code: null,
    severity: 'warning',
    status: 201,
    absent: true,
    request: (h) =>
      post(h, [file('file[]', 'a.xml', xml), field('colour', 'blue'), field('ignore_unused_parameters', '1')]),
  },
  {
    name: 'file without []',
    code: 'parameter_not_array_type',
    severity: 'warning',
    status: 201,
    request: (h) => post(h, [file('file', 'a.xml', xml)]),
  },
  {
    name: 'tag without [] in the query',
    code: 'parameter_not_array_type',
    severity: 'warning',
    status: 201,
    request: (h) => post(h, [file('file[]', 'a.xml', xml)], undefined, '?tag=branch:main'),
  },
  {
    name: 'two testcases with one title',
    code: 'duplicate_field_titles',
    severity: 'warning',
    status: 201,
    request: (h) => post(h, [file('file[]', 'a.xml', junitXml({ cases: [{ name: 'same' }, { name: 'same' }] }))]),
    check: (t, reply) => {
      t.equal(reply.report.totals.tests, 2, 'equal titles stay separate tests');
    },
  },
  {
    name: 'no formatter in the path',
    code: 'specify_formatter',
    severity: 'warning',
    status: 201,
    request: (h) => post(h, [file('file[]', 'a.xml', xml)], '/import'),
  },
  {
    name: 'trailing slash is the same path',
    code: 'specify_formatter',
    severity: 'warning',
    status: 201,
    request: (h) => post(h, [file('file[]', 'a.xml', xml)], '/import/'),
  },
  {
    name: 'ignore_unspecified_formatter hides it',
    code: 'specify_formatter',
    severity: 'warning',
    status: 201,
    absent: true,
    request: (h) => post(h, [file('file[]', 'a.xml', xml), field('ignore_unspecified_formatter', 'yes')], '/import'),
  },
  {
    name: 'the old report/import path',
    code: 'report_endpoint_deprecated',
    severity: 'warning',
    status: 201,
    request: (h) => post(h, [file('file[]', 'a.xml', xml)], '/report/import'),
  },
  {
    name: 'os, platform and build query parameters',
    code: 'tag_params_deprecated',
    severity: 'warning',
    status: 201,
    request: (h) => post(h, [file('file[]', 'a.xml', xml)], undefined, '?os=linux&platform=x64&build=42'),
    check: (t, reply) => {
      t.same(reply.report.tags, ['os:linux', 'platform:x64', 'build:42']);
    },
  },
  {
    name: 'GET on an import path',
    code: 'invalid_request_method',
    severity: 'error',
    status: 405,
    request: (h) => ({ method: 'GET', path: importPath(h) }),
  },
  {
    name: 'PUT on the detect path',
    code: 'invalid_request_method',
    severity: 'error',
    status: 405,
    request: (h) => ({ method: 'PUT', path: importPath(h, '/import'), body: 'x' }),
    check: (t, reply) => {
      t.equal(reply.status, 'failed');
      t.strictSame(
        reply.messages.map((m: any) => [m.code, m.severity]),
        [['invalid_request_method', 'error']],
        'a failed answer: its one message is an error',
      );
      t.match(reply.messages[0].message, /POST only\. Use POST\.$/);
    },
  },
  {
    name: 'more files than the limit without a formatter',
    code: 'max_files_limit',
    severity: 'warning',
    status: 201,
    request: (h) =>
      post(
        h,
        [1, 2, 3].map((i) => file('file[]', `a${i}.xml`, junitXml({ suite: `s${i}` }))),
        '/import',
      ),
  },
  {
    name: 'ignore_max_files_limit hides it',
    code: 'max_files_limit',
    severity: 'warning',
    status: 201,
    absent: true,
    request: (h) =>
      post(
        h,
        [
          ...[1, 2, 3].map((i) => file('file[]', `a${i}.xml`, junitXml({ suite: `s${i}` }))),
          field('ignore_max_files_limit', 'true'),
        ],
        '/import',
      ),
  },
  {
    name: 'one file without tests beside others',
    code: 'import_file_resulted_in_empty_report',
    severity: 'warning',
    status: 201,
    request: (h) => post(h, [file('file[]', 'a.xml', xml), file('file[]', 'b.xml', junitXml({ cases: [] }))]),
  },
  // 7.3 notices
  {
    name: 'plural parameter names',
    code: 'parameter_plural_made_singular',
    severity: 'notice',
    status: 201,
    request: (h) => post(h, [file('files[]', 'a.xml', xml), field('tags[]', 'x:y')]),
  },
  {
    name: 'merge_containers combines suites of two files',
    code: 'containers_combined',
    severity: 'notice',
    status: 201,
    request: (h) =>
      post(h, [
        file('file[]', 'a.xml', junitXml({ cases: [{ name: 'a' }] })),
        file('file[]', 'b.xml', junitXml({ cases: [{ name: 'b' }] })),
        field('merge_containers', 'true'),
      ]),
    check: async (t, reply, h) => {
      const top = await h.send({ method: 'GET', path: `/api/v2/reports/${reply.report_id}/containers` });
      const suites = top.json.containers.filter((c: any) => c.type === 'suite');
      t.equal(suites.length, 1, 'one suite left at the top');
      const kids = await h.send({
        method: 'GET',
        path: `/api/v2/reports/${reply.report_id}/containers?parent=${suites[0].seq}`,
      });
      t.same(kids.json.containers.map((c: any) => c.title).sort(), ['a', 'b']);
    },
  },
  {
    name: 'a report from long ago',
    code: 'report_contains_old_date',
    severity: 'notice',
    status: 201,
    request: (h) => post(h, [file('file[]', 'a.xml', junitXml({ timestamp: oldDate }))]),
  },
  {
    name: 'ignore_old_report_date hides it',
    code: 'report_contains_old_date',
    severity: 'notice',
    status: 201,
    absent: true,
    request: (h) =>
      post(h, [file('file[]', 'a.xml', junitXml({ timestamp: oldDate })), field('ignore_old_report_date', 'on')]),
  },
  {
    name: 'hidden files in a zip',
    code: 'mac_os_hidden_files',
    severity: 'notice',
    status: 201,
    request: async (h) =>
      post(h, [
        file(
          'file[]',
          'r.zip',
          await zipOf([
            { name: 'out/a.xml', data: xml },
            { name: '__MACOSX/out/._a.xml', data: 'junk' },
            { name: 'out/._b.xml', data: 'junk' },
          ]),
        ),
      ]),
    check: (t, reply) => {
      t.equal(reply.report.totals.tests, 2, 'hidden entries are not parsed');
    },
  },
  {
    name: 'a system-out longer than TALLY_MAX_TEXT_CHARS',
    code: 'text_truncated',
    severity: 'notice',
    status: 201,
    request: (h) =>
      post(h, [
        file('file[]', 'a.xml', junitXml({ cases: [{ name: 'talks', out: 'x'.repeat(5000) }, { name: 'quiet' }] })),
      ]),
    check: (t, reply) => {
      const m = reply.messages.find((m: any) => m.code === 'text_truncated');
      t.equal(m.details.containers, 1, 'one container was cut');
      t.equal(m.details.limit, 1000, 'the limit is named');
    },
  },
  // Tally's own codes
  {
    name: 'no API key',
    code: 'missing_api_key',
    severity: 'error',
    status: 401,
    request: (h) => ({ ...post(h, [file('file[]', 'a.xml', xml)]), noKey: true }),
  },
  {
    name: 'a wrong API key',
    code: 'invalid_api_key',
    severity: 'error',
    status: 401,
    request: (h) => ({
      ...post(h, [file('file[]', 'a.xml', xml)]),
      headers: { ...form([file('file[]', 'a.xml', xml)]).headers, 'x-api-key': 'tly_AAAAAAAAAAAA_' + 'A'.repeat(43) },
    }),
  },
  {
    name: "another account's profile",
    code: 'profile_forbidden',
    severity: 'error',
    status: 403,
    request: (h) => ({
      path: importPath(h, '/import/junit', h.foreignProfileId),
      ...form([file('file[]', 'a.xml', xml)]),
    }),
  },
  {
    name: 'an unknown profile',
    code: 'profile_not_found',
    severity: 'error',
    status: 404,
    request: (h) => ({ path: importPath(h, '/import/junit', 'nope'), ...form([file('file[]', 'a.xml', xml)]) }),
  },
  {
    name: 'the only file[] part is empty',
    code: 'empty_result_file',
    severity: 'error',
    status: 422,
    request: (h) => post(h, [file('file[]', 'empty.xml', '')]),
    check: (t, reply) => {
      t.equal(reply.messages.length, 1, 'one message, no word of a missing file or a body without a name');
      t.match(reply.messages[0], {
        file: 'empty.xml',
        message: /Empty: empty\.xml\./,
        details: { files: ['empty.xml'] },
      });
      t.match(reply.messages[0].message, /wrote its results before the upload step/, 'says what to do');
    },
  },
  {
    name: 'an empty file[] part beside a result file',
    code: 'empty_result_file_skipped',
    severity: 'warning',
    status: 201,
    request: (h) => post(h, [file('file[]', 'empty.xml', ''), file('file[]', 'a.xml', xml)]),
    check: (t, reply) => {
      t.match(
        reply.messages.find((m: any) => m.code === 'empty_result_file_skipped'),
        {
          file: 'empty.xml',
          details: { files: ['empty.xml'] },
        },
      );
      t.equal(reply.report.totals.tests, 2, 'the other file is imported');
    },
  },
  {
    name: 'a field over the size limit',
    code: 'multipart_limit_exceeded',
    severity: 'error',
    status: 413,
    request: (h) => post(h, [field('tag[]', 'x'.repeat(70_000)), file('file[]', 'a.xml', xml)]),
  },
  {
    name: 'a chunked body over the upload limit',
    code: 'payload_too_large',
    severity: 'error',
    status: 413,
    request: (h) => {
      const m = multipart([file('file[]', 'a.xml', xml + ' '.repeat(300_000))]);
      return {
        path: importPath(h),
        headers: { 'content-type': m.contentType, 'transfer-encoding': 'chunked' },
        body: chunks(m.body, 16_384),
      };
    },
  },
  {
    name: 'a zip over the entry limit',
    code: 'zip_limit_exceeded',
    severity: 'error',
    status: 413,
    request: async (h) =>
      post(h, [
        file('file[]', 'r.zip', await zipOf([1, 2, 3, 4, 5, 6].map((i) => ({ name: `a${i}.xml`, data: xml })))),
      ]),
  },
  {
    name: 'a truncated zip',
    code: 'zip_invalid',
    severity: 'error',
    status: 422,
    request: async (h) =>
      post(h, [file('file[]', 'r.zip', (await zipOf([{ name: 'a.xml', data: xml }])).subarray(0, 60))]),
  },
  {
    name: 'a store that fails while containers are written',
    code: 'store_unavailable',
    only: 'embedded',
    severity: 'error',
    status: 503,
    request: (h) => {
      failInserts(h, 'containers');
      return post(h, [file('file[]', 'a.xml', xml)]);
    },
    check: (_t, _r, h) => clearFault(h, 'containers'),
  },
  {
    name: 'a formatter with a bug',
    code: 'internal_error',
    severity: 'error',
    status: 500,
    request: (h) => post(h, [file('file[]', 'a.xml', xml)], '/import/throws'),
  },
];

function chunks(buf: Buffer, size: number): AsyncIterable<Buffer> {
  return (async function* () {
    for (let i = 0; i < buf.length; i += size) yield buf.subarray(i, i + size);
  })();
}

/** A real SQLite fault: a second connection adds a trigger that makes inserts into `table` fail. */
function failInserts(h: Harness, table: string): void {
  const db = new Database(path.join(h.dataDir, 'tally.sqlite'));
  db.exec(
    `create trigger if not exists fail_${table} before insert on ${table} begin select raise(fail, 'disk I/O ` +
      `error (test)'); end`,
  );
  db.close();
}

function clearFault(h: Harness, table: string): void {
  const db = new Database(path.join(h.dataDir, 'tally.sqlite'));
  db.exec(`drop trigger if exists fail_${table}`);
  db.close();
}

for (const kind of storeKinds(t))
  t.test(`every message code (${kind} store)`, async (t) => {
    const h = await startTally(t, {
      store: kind,
      formatters: [junit, twin, throwing, trx],
      limits: { maxFilesWithoutFormatter: 2, maxZipEntries: 5, maxUploadBytes: 200_000, maxTextChars: 1000 },
    });
    const covered = new Set<string | null>();
    for (const c of cases.filter((c) => !c.only || c.only === kind)) {
      await t.test(`${c.code ?? '(uncoded)'}: ${c.name}`, async (t) => {
        // The twin formatter only exists to make a tie; other cases name junit or vote with it absent.
        const before = await h.leftovers();
        const reply = await h.send(await c.request(h));
        t.equal(reply.status, c.status, `status ${c.status}`, { body: reply.text.slice(0, 2000) });
        t.ok(reply.json && Array.isArray(reply.json.messages), 'answer has messages');
        const found = reply.json.messages.filter((m: any) => m.code === c.code);
        if (c.absent) t.equal(found.length, 0, 'hidden by its flag');
        else {
          t.ok(found.length > 0, `has ${c.code}`);
          t.ok(
            found.every((m: any) => m.severity === c.severity),
            `severity ${c.severity}`,
          );
          t.ok(
            found.every((m: any) => typeof m.message === 'string' && m.message.length > 10),
            'human text',
          );
          covered.add(c.code);
        }
        if (reply.status >= 400 && reply.json.import_id) {
          const after = await h.leftovers();
          t.same(after.tmp, [], 'no spool file left');
          t.equal(after.blobs, before.blobs, 'no blob left behind');
          const record = await h.send({ method: 'GET', path: `/api/v2/imports/${reply.json.import_id}` });
          if (record.status === 200) t.equal(record.json.status, 'failed', 'import record ended failed');
        }
        if (c.status === 201) t.equal(reply.json.status, 'completed');
        await c.check?.(t, reply.json, h);
      });
    }
    // Tested elsewhere: not_found, upload_aborted, import_interrupted (test/http/import.test.ts), the 429s
    // (test/http/limits.test.ts), the web interface's codes (test/web/auth.test.ts); upload_timeout
    // (test/faults/slow-client.test.ts), storage_full (test/faults/full-disk.test.ts), request_headers_too_large
    // and malformed_request (test/http/odd-names.test.ts: Node's parser refuses them before any route);
    // invalid_query (test/http/read-query.test.ts: the read routes); profile_name_invalid, json_body_required and
    // import_in_progress (test/http/manage.test.ts: the routes that create, rename and delete); ci_context_invalid
    // (test/http/ci-context.test.ts: every way a CI field is refused).
    const web = ['session_required', 'csrf_rejected', 'signin_failed', 'password_rejected', 'user_invalid'];
    const elsewhere = [
      'not_found',
      'invalid_query',
      'upload_aborted',
      'import_interrupted',
      'too_many_imports',
      'too_many_attempts',
      'upload_timeout',
      'storage_full',
      'request_headers_too_large',
      'malformed_request',
      'profile_name_invalid',
      'json_body_required',
      'import_in_progress',
      'ci_context_invalid',
      // A CI link's codes: the link's tests (test/http/ci-link.test.ts), its runs' (ci-runs.test.ts,
      // the provider faults against real and recorded servers) and the providers' own.
      'ci_bad_token',
      'ci_unknown_job',
      'ci_provider_down',
      'ci_rate_limited',
      'ci_link_invalid',
      'ci_link_not_found',
      'ci_secret_key_missing',
      // Retention's (test/http/retention.test.ts: every body refused, on the API and its dry run;
      // test/web/retention-browser.test.ts: the form).
      'retention_policy_invalid',
      // Notification rules' codes: test/http/notifications.test.ts (refused URLs, a missing key or SMTP
      // server, an unknown rule) and test/web/notifications.test.ts.
      'notification_rule_invalid',
      'notification_rule_not_found',
      'notification_url_refused',
      'notification_secret_key_missing',
      'notification_smtp_missing',
      ...web,
      ...cases.filter((c) => c.only && c.only !== kind).map((c) => c.code),
    ];
    const all = [...Object.keys(CATALOGUE), null].filter((code) => !elsewhere.includes(code as string));
    t.same(
      all.filter((code) => !covered.has(code)),
      [],
      'every catalogue code has a case here',
    );
  });
