import t from 'tap';
import { FormatError, type Container } from '../../lib/formatter/api.js';
import { totalsOf } from '../../lib/formatter/check.js';
import {
  byTitle,
  childrenFirst,
  driveHandler,
  formatterChecks,
  formatterFixtures,
} from '../../test/helpers/formatter-fixtures.js';
import { dialect, headerOf, stepOf } from './dialects.js';
import { gherkin } from './index.js';
import { gherkinHandler, parseRow } from './parse.js';

const fx = formatterFixtures(gherkin, import.meta.url);

formatterChecks(fx, {
  fixtureScore: 0.95,
  eachFixture: (t, { containers }, name) => {
    t.ok(childrenFirst(containers), `${name}: children before parents`);
    t.ok(
      containers.every((c) => c.status === 'unknown'),
      `${name}: a feature file has no results`,
    );
  },
  chunks: { eachInChunksOf: 7 },
});

function parse(text: string, maxTextChars = 1000): Container[] {
  return driveHandler(gherkinHandler, 'shop/checkout.feature', maxTextChars, (h) =>
    text.split('\n').forEach((line, i) => h.line(line, i + 1)),
  ).out;
}

const children = (cs: Container[], parent: Container): Container[] => cs.filter((c) => c.parentId === parent.id);

t.test('keywords: longest first, with and without a trailing space, in the file’s language', async (t) => {
  const en = dialect('en')!;
  t.match(headerOf(en, 'Scenario Outline: eat'), { kind: 'scenarioOutline', keyword: 'Scenario Outline', name: 'eat' });
  t.match(headerOf(en, 'Scenario: eat'), { kind: 'scenario', name: 'eat' });
  t.equal(headerOf(en, 'Scenario eat'), null, 'the colon belongs to the keyword');
  t.same(stepOf(en, 'Given  a  step '), { keyword: 'Given ', text: 'a  step' });
  t.equal(stepOf(en, 'Givena step'), null);
  t.same(stepOf(dialect('fr')!, "Lorsqu'on paie"), { keyword: "Lorsqu'", text: 'on paie' });
  t.same(stepOf(dialect('fr')!, "Étant donné qu'un panier"), { keyword: "Étant donné qu'", text: 'un panier' });
  t.same(stepOf(dialect('em')!, '😐🎸'), { keyword: '😐', text: '🎸' });
  t.equal(dialect('xx'), null);
  t.equal(dialect('__proto__'), null, 'only the table’s own languages');
});

t.test('table rows: escapes, empty cells, spaces, text after the last pipe', async (t) => {
  t.same(parseRow('| a | b |'), ['a', 'b']);
  t.same(parseRow('|foo||boz|'), ['foo', '', 'boz']);
  t.same(parseRow('| a \\| b | c\\\\ | \\o |'), ['a | b', 'c\\', '\\o']);
  t.same(parseRow('| \\nx\\n | y |'), ['\nx\n', 'y'], 'line breaks from escapes are kept');
  t.same(parseRow('| a | b | extra'), ['a', 'b']);
});

t.test('a Feature with a Background, a Rule, tags, descriptions and comments', async (t) => {
  const out = parse(
    [
      '# Owner: the shop team',
      '@shop @slow',
      'Feature: Checkout',
      '  Customers pay.',
      '',
      '    Twice, if they must.',
      '',
      '  Background:',
      '    Given a basket',
      '',
      '  # the usual case',
      '  @smoke',
      '  Scenario: pay by card',
      '    The card is valid.',
      '    When the customer pays',
      '    # a comment inside the steps',
      '    Then a receipt is printed',
      '',
      '  @rule',
      '  Rule: Refunds',
      '    Background:',
      '      Given a paid order',
      '',
      '    Scenario: refund',
      '      When the customer asks',
      '',
      '    Scenario:',
    ].join('\n'),
  );
  t.same(totalsOf(out), { tests: 3, passed: 0, failed: 0, errored: 0, skipped: 3 });
  t.ok(childrenFirst(out));
  const feature = byTitle(out, 'Checkout');
  t.match(feature, {
    type: 'suite',
    parentId: null,
    status: 'unknown',
    output: { stdout: 'Customers pay.\n\n  Twice, if they must.' },
    properties: [
      { name: 'tag', value: '@shop' },
      { name: 'tag', value: '@slow' },
      { name: 'comment', value: 'Owner: the shop team' },
    ],
    meta: { keyword: 'Feature', line: '3', language: 'en', file: 'shop/checkout.feature' },
  });
  const card = byTitle(out, 'pay by card');
  t.match(card, {
    type: 'scenario',
    parentId: feature.id,
    status: 'unknown',
    output: { stdout: 'The card is valid.' },
    meta: { keyword: 'Scenario', line: '13' },
  });
  t.same(card.properties, [
    { name: 'tag', value: '@shop' },
    { name: 'tag', value: '@slow' },
    { name: 'tag', value: '@smoke' },
    { name: 'comment', value: 'the usual case' },
  ]);
  t.same(
    children(out, card).map((c) => [c.type, c.title, c.meta?.background]),
    [
      ['step', 'Given a basket', 'true'],
      ['step', 'When the customer pays', undefined],
      ['step', 'Then a receipt is printed', undefined],
    ],
  );
  t.same(children(out, card)[2]!.properties, [{ name: 'comment', value: 'a comment inside the steps' }]);
  const rule = byTitle(out, 'Refunds');
  t.match(rule, { type: 'suite', parentId: feature.id, properties: [{ name: 'tag', value: '@rule' }] });
  t.same(
    children(out, byTitle(out, 'refund')).map((c) => c.title),
    ['Given a basket', 'Given a paid order', 'When the customer asks'],
    'the Feature’s Background, then the Rule’s',
  );
  t.same(byTitle(out, 'refund').properties, [
    { name: 'tag', value: '@shop' },
    { name: 'tag', value: '@slow' },
    { name: 'tag', value: '@rule' },
  ]);
  t.same(children(out, byTitle(out, 'Scenario (line 27)')), [], 'no steps of its own: no Background either');
});

t.test('a Scenario Outline: a suite of one scenario per Examples row, named as Cucumber names them', async (t) => {
  const out = parse(
    [
      'Feature: Eating',
      '  Scenario Outline: eat <eat> of <start>',
      '    Given there are <start> cucumbers',
      '    When I eat <eat>',
      '    Then the note says:',
      '      """<kind>',
      '      <start> - <eat>',
      '      """',
      '    And the plate holds:',
      '      | left  |',
      '      | <left> |',
      '',
      '    @fast',
      '    Examples: small',
      '      Only small numbers.',
      '      | start | eat | left | kind |',
      '      | 12    | 5   | 7    | text |',
      '      | 20    | 5   | 15   | text |',
      '',
      '    Examples:',
      '      | start | eat | left | kind |',
      '      | 9     | 9   | 0    | md   |',
      '',
      '  Scenario Outline: same name',
      '    Given <x>',
      '    Examples:',
      '      | x |',
      '      | 1 |',
      '      | 2 |',
    ].join('\n'),
  );
  t.same(totalsOf(out).tests, 5);
  const outline = byTitle(out, 'eat <eat> of <start>');
  t.match(outline, { type: 'suite', status: 'unknown', meta: { keyword: 'Scenario Outline', line: '2' } });
  t.same(
    children(out, outline).map((c) => [c.type, c.title, c.meta?.name, c.meta?.line]),
    [
      ['scenario', '#1.1: eat 5 of 12', 'eat 5 of 12', '17'],
      ['scenario', '#1.2: eat 5 of 20', 'eat 5 of 20', '18'],
      ['scenario', '#2.1: eat 9 of 9', 'eat 9 of 9', '22'],
    ],
  );
  const first = byTitle(out, '#1.1: eat 5 of 12');
  t.same(first.properties, [
    { name: 'tag', value: '@fast' },
    { name: 'start', value: '12' },
    { name: 'eat', value: '5' },
    { name: 'left', value: '7' },
    { name: 'kind', value: 'text' },
  ]);
  t.match(first, { output: { stdout: 'Only small numbers.' }, meta: { examples: 'small', examplesLine: '14' } });
  const steps = children(out, first);
  t.same(
    steps.map((c) => c.title),
    ['Given there are 12 cucumbers', 'When I eat 5', 'Then the note says:', 'And the plate holds:'],
  );
  t.match(steps[2], { output: { stdout: '12 - 5' }, meta: { mediaType: 'text' } });
  t.equal(steps[3]!.output?.stdout, '| left |\n| 7 |');
  t.same(
    children(out, byTitle(out, 'same name')).map((c) => c.title),
    ['#1.1', '#1.2'],
    'an outline whose name takes no value: the row numbers alone',
  );
});

t.test('doc strings: indentation up to the delimiter, escaped delimiters, both kinds', async (t) => {
  const out = parse(
    [
      'Feature: f',
      '  Scenario: s',
      '    Given a text',
      '      """',
      '      first',
      '        indented',
      '    less indented',
      '      \\"\\"\\"',
      '      ```',
      '      """',
      '    And code',
      '      ```js',
      '      a\\`\\`\\`b',
      '      ```',
    ].join('\n'),
  );
  const [text, code] = children(out, byTitle(out, 's'));
  t.equal(text!.output?.stdout, 'first\n  indented\nless indented\n"""\n```');
  t.equal(code!.output?.stdout, 'a```b');
  t.equal(code!.meta?.mediaType, 'js');
});

t.test('a doc string that holds a feature file is text, not structure', async (t) => {
  const name = 'background-nested-gherkin-in-docstrings-cucumber-ruby.feature';
  const { containers } = await fx.run(fx.read(name), name);
  t.equal(
    containers.filter((c) => c.type === 'suite').length,
    1,
    'one Feature, no Rule or outline from the doc strings',
  );
  t.equal(totalsOf(containers).tests, 11);
});

t.test('languages: French, Japanese and emoji keywords', async (t) => {
  const fr = await fx.run(fx.read('i18n-fr-accented-and-apostrophe-keywords.feature'), 'fr.feature');
  t.match(byTitle(fr.containers, 'i18n support'), {
    type: 'suite',
    meta: { keyword: 'Fonctionnalité', language: 'fr' },
  });
  const given = byTitle(fr.containers, 'Support du mot-clef "Etant donné qu\'"');
  t.same(
    children(fr.containers, given).map((c) => [c.title, c.meta?.keyword]),
    [
      ["Etant donné qu'offrir un gâteau rend heureux", "Etant donné qu'"],
      ["Lorsqu'on m'offre 1 gâteau", "Lorsqu'"],
      ['Alors je suis heureux', 'Alors '],
    ],
  );
  const ja = await fx.run(fx.read('i18n-ja-scenario-outline-cucumber-ruby.feature'), 'ja.feature');
  const outline = byTitle(ja.containers, '2つの数の加算について');
  t.same(
    children(ja.containers, outline).map((c) => c.title),
    ['#1.1', '#1.2', '#1.3'],
  );
  t.same(
    children(ja.containers, byTitle(ja.containers, '#1.2')).map((c) => c.title),
    ['前提2 を入力', 'かつ5 を入力', 'もしadd を押した', 'ならば7 を表示'],
  );
  const em = await fx.run(fx.read('i18n-emoji-language.feature'), 'em.feature');
  t.same(
    em.containers.map((c) => [c.type, c.title]),
    [
      ['step', '😐🎸'],
      ['scenario', '💃'],
      ['suite', '🙈🙉🙊'],
    ],
  );
});

t.test('without a language header, the Feature line names the language', async (t) => {
  const out = parse('Fonctionnalité: Panier\n  Scénario: vide\n    Soit un panier vide\n    Alors le total est 0\n');
  t.same(
    out.map((c) => [c.type, c.title]),
    [
      ['step', 'Soit un panier vide'],
      ['step', 'Alors le total est 0'],
      ['scenario', 'vide'],
      ['suite', 'Panier'],
    ],
  );
  t.equal(out[3]!.meta?.language, 'fr');
  t.equal(parse('Feature: a\n  Scenario: b\n    Given c\n')[2]!.meta?.language, 'en', 'English first');
  t.throws(() => parse('# language: en\nFonctionnalité: Panier\n'), FormatError, 'a header is taken at its word');
});

t.test('outlines without rows: none without a table, one scenario without Examples', async (t) => {
  const name = 'incomplete-scenario-outlines.feature';
  const { containers } = await fx.run(fx.read(name), name);
  t.same(
    containers.filter((c) => c.type === 'scenario').map((c) => [c.title, children(containers, c).length]),
    [
      ['steps, no examples', 2],
      ['no steps, no examples', 0],
      ['#1.1', 0],
    ],
  );
});

t.test('what Cucumber refuses is a FormatError with its line', async (t) => {
  const cases: [string, string, number | null][] = [
    ['no Feature', '# just a comment\n', null],
    ['text before the Feature', 'Hello\nFeature: a\n', 1],
    ['unknown language', '# language: xx\nFeature: a\n', 1],
    ['a second Feature', 'Feature: a\nFeature: b\n', 2],
    ['a misspelt step', 'Feature: a\n  Scenario: b\n    Given c\n    Whne d\n', 4],
    ['an unclosed doc string', 'Feature: a\n  Scenario: b\n    Given c\n      """\n      x\n', 4],
    ['a row too long', 'Feature: a\n  Scenario: b\n    Given c\n      | a |\n      | b | c |\n', 5],
    ['a tag with a space', 'Feature: a\n  @a tag\n  Scenario: b\n', 2],
    ['tags before a step', 'Feature: a\n  Scenario: b\n    @x\n    Given c\n', 3],
    ['Examples outside a scenario', 'Feature: a\n  Examples:\n', 2],
  ];
  for (const [name, text, line] of cases) {
    const e = t.throws(() => parse(text), FormatError, name) as unknown as FormatError;
    t.equal(e.line, line, `${name}: line`);
  }
});

t.test('descriptions, doc strings and tables are cut at the limit', async (t) => {
  const out = parse(
    `Feature: f\n  ${'d'.repeat(300)}\n  Scenario: s\n    Given x\n      """\n      ${'y'.repeat(300)}\n      """\n`,
    100,
  );
  t.match(byTitle(out, 'f').output?.stdout, /^d{100}\n\[… truncated by Tally at 100 characters\]$/);
  t.match(byTitle(out, 'Given x').output?.stdout, /^y{100}\n\[… truncated by Tally at 100 characters\]/);
});
