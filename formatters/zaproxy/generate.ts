/**
 * The bench generator of this format (bench/formatters.ts runs it): an OWASP ZAP report as the
 * core writer of `zap-baseline.py -x` lays it out, one site per 40 alerts, each alert with one to
 * five instances and ZAP's escaped HTML paragraphs. Failed cases are High or Medium alerts,
 * skipped ones false positives, passed ones Low or Informational.
 */
import { caseAt, sized, text, TESTS_PER_SUITE, VALUES } from '../../bench/cases.js';
import type { FormatGenerator, Writer } from '../../bench/cases.js';

/** ZAP escapes its paragraphs once (`<p>` → `&lt;p&gt;`) and the XML writer escapes again. */
const paragraphs = (...lines: string[]): string => text(lines.map((l) => `<p>${text(l)}</p>`).join(''));

const zaproxy: Writer = async (out, n, seed) => {
  await out.put('<?xml version="1.0"?><OWASPZAPReport version="2.10.0" generated="Sun, 1 Nov 2026 10:00:00">\n');
  for (let s = 0; s * TESTS_PER_SUITE < n; s++) {
    const host = `app-${s}.example.com`;
    await out.put(`<site name="https://${host}" host="${host}" port="443" ssl="true"><alerts>`);
    for (let i = s * TESTS_PER_SUITE; i < Math.min(n, (s + 1) * TESTS_PER_SUITE); i++) {
      const c = caseAt(seed, i);
      const risk = c.status === 'failed' ? (c.error ? 3 : 2) : c.i % 2;
      const confidence = c.status === 'skipped' ? 0 : 1 + (c.i % 3);
      const count = 1 + Math.floor(c.r() * 5);
      let instances = '';
      for (let k = 0; k < count; k++)
        instances +=
          `  <instance>\n  <uri>https://${host}/${text(encodeURI(c.method))}/${k}?q=${k}</uri>\n  <method>GET</method>\n` +
          `  <param>q</param>\n  <evidence>${text(VALUES[k % VALUES.length]!)}</evidence>\n  </instance>\n`;
      await out.put(
        `<alertitem>\n  <pluginid>${10000 + i}</pluginid>\n  <alertRef>${10000 + i}</alertRef>\n` +
          `  <alert>${text(c.title)}</alert>\n  <name>${text(c.title)}</name>\n  <riskcode>${risk}</riskcode>\n` +
          `  <confidence>${confidence}</confidence>\n  <riskdesc>Risk (Confidence)</riskdesc>\n` +
          `  <desc>${paragraphs(`The page ${c.title} & more.`, c.message ?? 'No message.')}</desc>\n` +
          `  <instances>\n${instances}  </instances>\n  <count>${count}</count>\n` +
          `  <solution>${paragraphs('Set the header on every response.')}</solution>\n` +
          `  <otherinfo>${paragraphs(c.stdout ?? 'None.')}</otherinfo>\n` +
          `  <reference>${paragraphs('https://owasp.org/www-project-secure-headers/', `https://example.com/${c.i}`)}` +
          `</reference>\n  <cweid>${c.line}</cweid>\n  <wascid>15</wascid>\n  <sourceid>3</sourceid>\n</alertitem>\n`,
      );
    }
    await out.put('</alerts></site>');
  }
  await out.put('</OWASPZAPReport>');
  return n;
};

export const generator: FormatGenerator = sized('Report.xml', zaproxy);
