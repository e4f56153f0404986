/**
 * The mime-type warning (lib/import/detect/mime-warning.ts, SPEC 4.5 rule 14): XML without a
 * declaration, an extension its formatter does not list, no extension at all (but a raw body has
 * none by nature). A warning, never a failure.
 */
import t from 'tap';
import type { Formatter } from '../../../lib/formatter/api.js';
import { readHead } from '../../../lib/formatter/head.js';
import { mimeWarning } from '../../../lib/import/detect/mime-warning.js';

const junitLike: Formatter = {
  key: 'junit',
  title: 'JUnit',
  extensions: ['.xml'],
  mediaTypes: ['application/xml'],
  sniff: () => 1,
  parse: async () => undefined,
};

t.test('what the warning says, case by case', async (t) => {
  const declared = '<?xml version="1.0"?><testsuite/>';
  const bare = '<testsuite/>';
  const cases: [name: string, fileName: string, text: string, message: RegExp | null][] = [
    ['XML with a declaration and a listed extension', 'a.xml', declared, null],
    ['no declaration', 'a.xml', bare, /a\.xml: the XML has no declaration\.$/],
    ['an extension not listed', 'a.txt', declared, /a\.txt: the extension \.txt is not one of \.xml\.$/],
    ['no extension', 'results', declared, /results: the file has no extension\.$/],
    ['a raw body has no extension by nature', 'request-body', declared, null],
    [
      'every reason, in one message',
      'a.log',
      bare,
      /a\.log: the XML has no declaration; the extension \.log is not one of \.xml\.$/,
    ],
  ];
  for (const [name, fileName, text, message] of cases) {
    const warning = mimeWarning(readHead(Buffer.from(text), fileName, true).head, junitLike);
    if (message === null) t.equal(warning, null, name);
    else t.match(warning, { code: 'invalid_file_mime_type', severity: 'warning', file: fileName, message }, name);
  }
});
