/**
 * Attachment resolution (lib/import/finalize/attachments.ts), case by case: a reference of a result file
 * finds an attached file by its whole path or by a path suffix that ends at a `/`, the longest
 * match winning (SPEC 2, "Attachment"; SPEC 4.5 rule 10 for what is not found).
 */
import t from 'tap';
import { resolveAttachments } from '../../../lib/import/finalize/attachments.js';
import type { StoredFile } from '../../../lib/store/types.js';

function stored(name: string, i: number): StoredFile {
  return {
    name,
    blobId: `blob-${i}`,
    size: 10 + i,
    sha256: 'x'.repeat(64),
    contentType: name.endsWith('.png') ? 'image/png' : null,
    formatter: null,
  };
}

interface Case {
  name: string;
  /** Names of the attached files, in the order they arrived. */
  files: string[];
  /** [container seq, reference] as the assembler collected them. */
  refs: [number, string][];
  /** Container seq → names of the files linked to it, in order. */
  links: Record<number, string[]>;
  /** References left unresolved. */
  missing: string[];
}

const cases: Case[] = [
  { name: 'no references', files: ['a.png'], refs: [], links: {}, missing: [] },
  {
    name: 'the exact path',
    files: ['shots/a.png'],
    refs: [[1, 'shots/a.png']],
    links: { 1: ['shots/a.png'] },
    missing: [],
  },
  {
    name: 'a CI path finds the base name',
    files: ['a.png'],
    refs: [[1, '/ci/work/shots/a.png']],
    links: { 1: ['a.png'] },
    missing: [],
  },
  {
    name: 'a CI path finds a path suffix',
    files: ['shots/a.png'],
    refs: [[1, '/ci/work/shots/a.png']],
    links: { 1: ['shots/a.png'] },
    missing: [],
  },
  {
    name: 'a base name finds a file kept under a folder',
    files: ['out/shots/a.png'],
    refs: [[1, 'a.png']],
    links: { 1: ['out/shots/a.png'] },
    missing: [],
  },
  {
    name: 'a suffix must start at a folder: xa.png is not a.png',
    files: ['xa.png', 'a.pngx'],
    refs: [[1, 'a.png']],
    links: {},
    missing: ['a.png'],
  },
  {
    name: 'the longest match wins, wherever it arrived',
    files: ['a.png', 'ci/shots/a.png', 'shots/a.png'],
    refs: [[1, 'shots/a.png']],
    links: { 1: ['ci/shots/a.png'] },
    missing: [],
  },
  {
    name: 'ambiguous: of two matches of one length the first to arrive wins',
    files: ['x/a.png', 'y/a.png'],
    refs: [[1, 'a.png']],
    links: { 1: ['x/a.png'] },
    missing: [],
  },
  {
    name: 'Windows separators in the reference',
    files: ['shots/a.png'],
    refs: [[1, 'C:\\ci\\work\\shots\\a.png']],
    links: { 1: ['shots/a.png'] },
    missing: [],
  },
  {
    name: 'Windows separators in the file name',
    files: ['shots\\a.png'],
    refs: [[1, 'shots/a.png']],
    links: { 1: ['shots\\a.png'] },
    missing: [],
  },
  {
    name: 'leading ./ and / and spaces are dropped on both sides',
    files: ['./././shots/a.png', '  /b.png '],
    refs: [
      [1, '  ./shots/a.png'],
      [2, '//b.png'],
    ],
    links: { 1: ['./././shots/a.png'], 2: ['  /b.png '] },
    missing: [],
  },
  {
    name: 'a ../ reference still ends in a path suffix',
    files: ['shots/a.png'],
    refs: [[1, '../shots/a.png']],
    links: { 1: ['shots/a.png'] },
    missing: [],
  },
  {
    name: 'case matters',
    files: ['Shots/A.png'],
    refs: [
      [1, 'shots/a.png'],
      [2, 'A.PNG'],
    ],
    links: {},
    missing: ['shots/a.png', 'A.PNG'],
  },
  {
    name: 'URLs and inline data are not files to find, nor missing',
    files: ['a.png'],
    refs: [
      [1, 'https://ci.example/a.png'],
      [1, 'HTTP://ci.example/a.png'],
      [1, ' data:image/png;base64,AAAA'],
    ],
    links: {},
    missing: [],
  },
  {
    name: 'missing references are kept in order, one per reference',
    files: ['a.png'],
    refs: [
      [1, 'b.png'],
      [2, 'a.png'],
      [3, 'b.png'],
      [3, ''],
    ],
    links: { 2: ['a.png'] },
    missing: ['b.png', 'b.png', ''],
  },
  {
    name: 'no attached files: everything is missing',
    files: [],
    refs: [[1, 'a.png']],
    links: {},
    missing: ['a.png'],
  },
  {
    name: 'one container: one link per file, however often it is referred to',
    files: ['a.png', 'b.png'],
    refs: [
      [1, 'a.png'],
      [1, '/ci/a.png'],
      [1, 'b.png'],
    ],
    links: { 1: ['a.png', 'b.png'] },
    missing: [],
  },
  {
    name: 'one file linked to every container that refers to it',
    files: ['a.png'],
    refs: [
      [1, 'a.png'],
      [7, 'a.png'],
    ],
    links: { 1: ['a.png'], 7: ['a.png'] },
    missing: [],
  },
];

for (const c of cases) {
  t.test(c.name, async (t) => {
    const files = c.files.map(stored);
    const refs = c.refs.map(([seq, ref]) => ({ seq, ref }));
    const got = resolveAttachments(refs, files);
    const links = Object.fromEntries([...got.links].map(([seq, list]) => [seq, list.map((l) => l.name)]));
    t.strictSame(links, c.links, 'links');
    t.strictSame(
      got.missing.map((m) => m.ref),
      c.missing,
      'missing',
    );
    t.ok(
      got.missing.every((m) => refs.includes(m)),
      'a missing reference is the one given, with its container',
    );
  });
}

t.test('a link carries the file as stored', async (t) => {
  const file = stored('shots/a.png', 3);
  const { links } = resolveAttachments([{ seq: 4, ref: 'a.png' }], [file]);
  t.strictSame(links.get(4), [{ name: 'shots/a.png', blobId: 'blob-3', contentType: 'image/png', size: 13 }]);
});
