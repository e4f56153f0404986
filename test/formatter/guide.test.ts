/**
 * docs/writing-a-formatter.md against the real API and the example it walks through: the kit names
 * it lists are exports of the formatter API, its excerpts are the example's code, its container is
 * the shape newContainer makes, its MANIFEST is the example's, and its check command is the one
 * test/formatter/loader.test.ts runs.
 */
import t from 'tap';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as api from '../../lib/formatter/api.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const guide = await readFile(path.join(root, 'docs/writing-a-formatter.md'), 'utf8');
const example = await readFile(path.join(root, 'docs/example-formatter/libtest/index.js'), 'utf8');
const exampleLines = new Set(example.split('\n').map((l) => l.trim()));

/** The fenced blocks of a language, in order. */
function blocks(lang: string): string[] {
  return [...guide.matchAll(new RegExp('^```' + lang + '\\n([\\s\\S]*?)^```$', 'gm'))].map((m) => m[1]!);
}

/** The text of a section, from its heading to the next. */
function section(heading: string): string {
  const start = guide.indexOf(`\n## ${heading}`);
  if (start < 0) throw new Error(`no section ${heading}`);
  const end = guide.indexOf('\n## ', start + 1);
  return guide.slice(start, end < 0 ? undefined : end);
}

t.test('every kit function the guide lists is exported by tally/formatter-api', async (t) => {
  const list = section('1.').slice(section('1.').indexOf('- readers:'));
  const names = [...list.matchAll(/`([A-Za-z]+)(?:\([^`]*\))?`/g)].map((m) => m[1]!);
  // Words in the list that are not kit exports: a formatter's and a machine's method, a container field.
  const notExports = new Set(['parse', 'end', 'startedAtNaive']);
  const missing = names.filter((n) => !notExports.has(n) && !(n in api));
  t.ok(names.length >= 25, `${names.length} names`);
  t.same(missing, [], 'no name the API lacks');
  for (const name of ['FormatError', 'capText', 'forEachLine', 'newContainer'])
    t.ok(
      guide.includes(`import { FormatError, capText, forEachLine, newContainer } from 'tally/formatter-api';`),
      name,
    );
});

t.test("the guide's excerpts of the example are the example's code", async (t) => {
  const js = blocks('js');
  const excerpts = js.filter((b) => b.includes('sniff(head) {\n    if') || b.includes('const test = newContainer('));
  t.equal(excerpts.length, 2, 'the sniff and the newContainer call');
  for (const excerpt of excerpts)
    for (const line of excerpt.split('\n').map((l) => l.trim()))
      if (line) t.ok(exampleLines.has(line), `in index.js: ${line}`);
  const object = js.find((b) => b.includes("key: 'libtest'"))!;
  for (const field of ['key', 'title', 'extensions', 'mediaTypes']) {
    const line = object.split('\n').find((l) => l.trim().startsWith(`${field}:`))!;
    const value = line.trim().replace(/,\s*\/\/.*$/, ',');
    t.ok(exampleLines.has(value), `${field} as the example has it: ${value}`);
  }
});

t.test("the guide's container is the shape newContainer makes", async (t) => {
  const sample = blocks('js').find((b) => b.trimStart().startsWith('{\n  id:'))!;
  t.ok(sample, 'the container sample');
  const container = new Function(`return (${sample});`)() as api.Container;
  const made = api.newContainer({
    id: container.id,
    parentId: container.parentId,
    type: container.type,
    title: container.title,
    status: container.status,
    meta: container.meta!,
  });
  t.same(Object.keys(container), Object.keys(made), 'the same fields, in the same order');
  t.same(container, made, 'and the empty values newContainer fills in');
  t.equal(api.forEachLine.length, 3, 'forEachLine(input, out, onLine)');
  t.match(guide, 'await forEachLine(input, out, (line, lineNumber) => { … });');
});

t.test("the guide's MANIFEST is the example's, and its command is the one the tests run", async (t) => {
  const manifest = JSON.parse(blocks('json')[0]!) as { files: Record<string, unknown>[] };
  const real = JSON.parse(
    await readFile(path.join(root, 'docs/example-formatter/libtest/fixtures/MANIFEST.json'), 'utf8'),
  ) as { files: Record<string, unknown>[] };
  t.same(manifest.files[0], real.files[0]);
  t.same(Object.keys(manifest.files[0]!.expected as object), ['tests', 'passed', 'failed', 'errored', 'skipped']);
  t.match(blocks('sh').join('\n'), 'node dist/bin/tally.js formatter check docs/example-formatter\n');
});
