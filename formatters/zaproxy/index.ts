/**
 * OWASP ZAP XML reports (root `OWASPZAPReport`): `zap-baseline.py -x`, `zap-full-scan.py -x`, the
 * API's `/OTHER/core/other/xmlreport/` and the `traditional-xml`/`traditional-xml-plus` report
 * templates. See README.md beside this file.
 */
import { xmlParse } from '../../lib/formatter/api.js';
import type { Formatter } from '../../lib/formatter/api.js';
import { zaproxyHandler } from './parse.js';
import { sniff } from './sniff.js';

export const zaproxy = {
  key: 'zaproxy',
  title: 'OWASP ZAP XML report',
  extensions: ['.xml'],
  mediaTypes: ['application/xml', 'text/xml'],
  sniff,
  parse: xmlParse(zaproxyHandler),
} satisfies Formatter;
