/**
 * The streaming XML tokenizer: the same events whatever the chunking, entities and CDATA right,
 * and each well-formedness rule it keeps failing with a position.
 */
import t from 'tap';
import { XmlTokenizer } from '../../../lib/formatter/kit/xml-tokenizer.js';
import { isFormatError } from '../../../lib/formatter/api.js';

const BOUNDS = { maxDepth: 50, maxTagChars: 4096, maxValueChars: 512 };

/** Events as one list; adjacent text pieces joined (handlers join what they keep). */
function events(chunks: string[]): string[] {
  const out: string[] = [];
  const tok = new XmlTokenizer(
    {
      open: (name, attrs) => out.push(`<${name} ${JSON.stringify(attrs)}>`),
      text: (text) => {
        const last = out.length - 1;
        if (last >= 0 && out[last]!.startsWith('#')) out[last] += text;
        else out.push(`#${text}`);
      },
      close: (name) => out.push(`</${name}>`),
    },
    BOUNDS,
  );
  for (const c of chunks) tok.write(c);
  tok.end();
  return out;
}

function failure(doc: string): { message: string; line: number | null; column: number | null } {
  try {
    events([doc]);
  } catch (e) {
    if (isFormatError(e)) return { message: e.message, line: e.line, column: e.column };
    throw e;
  }
  throw new Error('no error');
}

const DOC = `\uFEFF<?xml version="1.0" encoding="UTF-8"?>
<!-- a comment with <tags> and -- dashes -->
<!DOCTYPE testsuites [ <!ENTITY x "y>"> <!-- > --> ]>
<?processing instruction > ?>
<testsuites name="all &amp; more" time='1.5' empty="">
  <testsuite name="a&#x3E;b" tests="2" gt="1 > 0">
    <testcase name="one" classname="c"/>
    <testcase name="two &lt;2&gt;"><failure message="boom &quot;x&quot;">at &#65;&#x42;C
line 2 ✓ résumé</failure><system-out><![CDATA[raw <xml> & ]] ] > stuff]]></system-out></testcase>
    <ns:extra xmlns:ns="urn:x" ns:a='&apos;q&apos;'>text &#27;ansi&#x1B;</ns:extra>
  </testsuite >
</testsuites>
<!-- trailing comment -->
`;

t.test('every chunking of a document gives the same events', async (t) => {
  const whole = events([DOC]);
  t.same(
    whole.slice(0, 4),
    [
      '<testsuites {"name":"all & more","time":"1.5","empty":""}>',
      '#\n  ',
      '<testsuite {"name":"a>b","tests":"2","gt":"1 > 0"}>',
      '#\n    ',
    ],
    'attributes decoded, > inside values',
  );
  t.ok(whole.includes('#at AB\u0043\nline 2 ✓ résumé'), 'character references and non-ASCII text');
  t.ok(whole.includes('#raw <xml> & ]] ] > stuff'), 'CDATA as it is');
  t.ok(whole.includes(`<ns:extra {"xmlns:ns":"urn:x","ns:a":"'q'"}>`), 'prefixed names kept, &apos;');
  t.ok(whole.includes('#text \uFFFDansi\uFFFD'), 'references to characters XML forbids become U+FFFD');
  t.equal(whole[whole.length - 1], '</testsuites>');
  let split2 = 0;
  for (let i = 1; i < DOC.length; i++) {
    const a = events([DOC.slice(0, i), DOC.slice(i)]);
    if (JSON.stringify(a) === JSON.stringify(whole)) split2++;
    else t.same(a, whole, `split at ${i}`);
  }
  t.equal(split2, DOC.length - 1, 'any split into two chunks');
  const bytes = [...DOC];
  t.same(events(bytes), whole, 'one character per chunk');
  t.same(events(DOC.match(/[\s\S]{1,7}/g)!), whole, 'seven characters per chunk');
});

t.test('several root elements are accepted, as strict sax did', async (t) => {
  t.same(events(['<a/>\n<b>x</b>']), ['<a {}>', '</a>', '<b {}>', '#x', '</b>']);
});

t.test('what is not well-formed fails, with a position', async (t) => {
  const cases: [string, string, RegExp, number, number][] = [
    ['close out of order', '<a>\n  <b></a>', /Unexpected close tag <\/a>, <b> is open/, 2, 6],
    ['close with nothing open', '<a/></b>', /Unexpected close tag <\/b>/, 1, 5],
    ['root not closed (at the end of the file)', '<a><b></b>', /Unclosed root tag/, 1, 11],
    ['text before the root', 'hello <a/>', /Non-whitespace before first tag/, 1, 1],
    ['text after the root', '<a/> trailing', /Text data outside of root node/, 1, 5],
    ['a stray &', '<a>fish & chips</a>', /a & that starts no reference/, 1, 9],
    ['an undeclared entity', '<!DOCTYPE a [<!ENTITY e "x">]><a>&e;</a>', /Invalid character entity &e;/, 1, 34],
    ['an unquoted attribute', '<a b=c/>', /Unquoted attribute value/, 1, 1],
    ['an attribute without value', '<a b/>', /Attribute without value/, 1, 1],
    ['an unencoded <', '<a>< b</a>', /Unencoded </, 1, 4],
    ['an unclosed CDATA section', '<a><![CDATA[x', /Unclosed CDATA section/, 1, 14],
    ['an unclosed comment', '<a/><!-- x', /Unclosed comment/, 1, 11],
    ['end of file in a tag', '<a><b c="1"', /end of file inside a tag/, 1, 4],
    ['no root at all', '<?xml version="1.0"?>\n', /No root element/, 2, 1],
    ['too deep', '<a>'.repeat(51), /nested deeper than 50/, 1, 151],
    ['a long value', `<a b="${'x'.repeat(513)}"/>`, /attribute value longer than 512/, 1, 1],
    ['a tag that never ends', `<a b="${'x'.repeat(5000)}`, /more than 4096 characters/, 1, 1],
  ];
  for (const [name, doc, message, line, column] of cases) {
    const f = failure(doc);
    t.match(f.message, message, name);
    t.match(f.message, /^XML is not well-formed: /, `${name}: says what kind of fault`);
    t.same([f.line, f.column], [line, column], `${name}: line ${line}, column ${column}`);
  }
});

t.test('positions count lines across chunks', async (t) => {
  const doc = '<a>\n' + '<b>x</b>\n'.repeat(1000) + '<c></a>';
  for (const size of [1, 13, 4096]) {
    try {
      events(doc.match(new RegExp(`[\\s\\S]{1,${size}}`, 'g'))!);
      t.fail('no error');
    } catch (e) {
      if (!isFormatError(e)) throw e;
      t.same([e.line, e.column], [1002, 4], `chunks of ${size}`);
    }
  }
});
