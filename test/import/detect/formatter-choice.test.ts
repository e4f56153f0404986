/**
 * Choosing a file's formatter (lib/import/detect/formatter-choice.ts): a named formatter whose sniff
 * refuses the head leaves the file unmatched; otherwise the candidates vote, and a tie is the file's
 * fault. A `formatter` field after the files is refused unless it agrees with what they got. Keys of
 * the path or form and raw-body media types are looked up with their own faults.
 */
import t from 'tap';
import type { Formatter, Head } from '../../../lib/formatter/api.js';
import { readHead } from '../../../lib/formatter/head.js';
import { createRegistry } from '../../../lib/formatter/registry.js';
import { FormatterChoice, lookupFormatter, rawBodyCandidates } from '../../../lib/import/detect/formatter-choice.js';

/** A formatter that is sure of heads whose text starts with its key, and gives `others` to the rest. */
function formatter(key: string, o: { others?: number; mediaTypes?: string[] } = {}): Formatter {
  return {
    key,
    title: key,
    extensions: ['.txt'],
    mediaTypes: o.mediaTypes ?? [],
    sniff: (head) => (head.text.startsWith(key) ? 1 : (o.others ?? 0)),
    parse: async () => undefined,
  };
}

const head = (text: string, name = 'f.txt'): Head => readHead(Buffer.from(text), name, true).head;
const alpha = formatter('alpha');
const beta = formatter('beta');
const greedy = formatter('greedy', { others: 1 });

t.test('choose: named, voted, tied', async (t) => {
  const cases: [name: string, named: Formatter | null, candidates: Formatter[], text: string, chosen: string | null][] =
    [
      ['named, and its sniff agrees', alpha, [alpha, beta], 'alpha …', 'alpha'],
      ['named, but its sniff refuses: unmatched, no vote', alpha, [alpha, beta], 'beta …', null],
      ['not named: the vote picks', null, [alpha, beta], 'beta …', 'beta'],
      ['not named, nobody wants it', null, [alpha, beta], 'gamma …', null],
      ['only the candidates vote', null, [alpha], 'beta …', null],
    ];
  for (const [name, named, candidates, text, chosen] of cases)
    t.equal(new FormatterChoice(named, candidates).choose(head(text), 'f.txt')?.key ?? null, chosen, name);

  const tie = new FormatterChoice(null, [alpha, greedy]);
  t.throws(() => tie.choose(head('alpha …'), 'a.txt'), {
    code: 'multiple_formatter_match',
    msg: { file: 'a.txt', details: { formatters: ['alpha', 'greedy'] } },
  });
});

t.test("choose: a file the named formatter refuses is put to the others' vote", async (t) => {
  const choice = new FormatterChoice(alpha, [alpha, beta, greedy]);
  t.equal(choice.choose(head('beta …'), 'b.txt'), null, 'refused: unmatched');
  t.equal(choice.choose(head('alpha …'), 'a.txt'), alpha, 'taken: not listed');
  t.strictSame(
    choice.refused.map((r) => [r.file, r.formatter.key, r.looksLike.map((f) => f.key)]),
    [['b.txt', 'alpha', ['beta', 'greedy']]],
    'a tie of the others: both named; the named formatter never votes on its own refusal',
  );
  const sure = new FormatterChoice(beta, [alpha, beta]);
  sure.choose(head('alpha …'), 'a.txt');
  sure.choose(head('gamma …'), 'g.txt');
  t.strictSame(
    sure.refused.map((r) => [r.file, r.looksLike.map((f) => f.key)]),
    [
      ['a.txt', ['alpha']],
      ['g.txt', []],
    ],
    'one match, or none',
  );
  t.strictSame(new FormatterChoice(null, [alpha, beta]).refused, [], 'nothing is refused when nothing is named');
});

t.test('name: a formatter field after files must agree with them', async (t) => {
  const sofar = (files: number, unmatched: number, formatters: string[]) => ({ files, unmatched, formatters });
  const ok: [name: string, named: Formatter | null, s: ReturnType<typeof sofar>][] = [
    ['before any file', null, sofar(0, 0, [])],
    ['the files got that formatter', null, sofar(2, 0, ['alpha', 'alpha'])],
    ['it was named already', alpha, sofar(2, 1, ['beta'])],
  ];
  for (const [name, named, s] of ok) {
    const choice = new FormatterChoice(named, [alpha, beta]);
    choice.name(alpha, s);
    t.equal(choice.formatter, alpha, name);
  }
  const refused: [name: string, s: ReturnType<typeof sofar>][] = [
    ['a file got another formatter', sofar(2, 0, ['alpha', 'beta'])],
    ['a file was unmatched', sofar(1, 1, [])],
  ];
  for (const [name, s] of refused)
    t.throws(
      () => new FormatterChoice(null, [alpha, beta]).name(alpha, s),
      {
        code: 'import_validation_error',
        msg: { details: { parameter: 'formatter' } },
      },
      name,
    );
});

t.test('lookupFormatter and rawBodyCandidates', async (t) => {
  const json = formatter('json-ish', { mediaTypes: ['application/json'] });
  const registry = createRegistry([alpha, json]);
  t.equal(lookupFormatter(registry, 'alpha'), alpha);
  t.throws(() => lookupFormatter(registry, 'x'.repeat(100)), {
    code: 'invalid_formatter',
    message: /"x{60}" is not one of: alpha, json-ish\.$/,
    msg: { details: { formatter: 'x'.repeat(60) } },
  });
  t.strictSame(rawBodyCandidates(registry, null, 'application/json'), [json], 'all that take the type');
  const json2 = formatter('json-too', { mediaTypes: ['application/json'] });
  const both = createRegistry([alpha, json, json2]);
  t.strictSame(
    rawBodyCandidates(both, json, 'application/json'),
    [json, json2],
    'named, when it takes the type: all that take it vote on what a body it refuses looks like',
  );
  t.throws(() => rawBodyCandidates(registry, alpha, 'application/json'), {
    code: 'import_content_type_error',
    message: /application\/json is not a content type of the formatter alpha \(\)\.$/,
  });
  t.throws(() => rawBodyCandidates(registry, null, 'text/csv'), {
    code: 'import_content_type_error',
    message: /text\/csv is not a content type of any formatter\.$/,
    msg: { details: { content_type: 'text/csv' } },
  });
});
