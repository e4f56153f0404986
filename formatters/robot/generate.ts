/**
 * The bench generator of this format (bench/formatters.ts runs it): Robot Framework 7 output.xml:
 * one top-level suite → module directories → .robot files → tests
 */
import { attr, BASE_MS, camel, caseAt, iso, moduleName, sized, SUITES_PER_MODULE, tally } from '../../bench/cases.js';
import { TESTS_PER_SUITE, text } from '../../bench/cases.js';
import type { FormatGenerator, Writer } from '../../bench/cases.js';

const robot: Writer = async (out, n, seed) => {
  const all = tally(seed, 0, n);
  const t = (ms: number): string => iso(ms).replace('Z', '000');
  const kw = (
    name: string,
    owner: string,
    args: string[],
    st: string,
    start: number,
    elapsed: number,
    msgs: { level: string; text: string }[],
    statusText = '',
  ): string =>
    `<kw name="${attr(name)}" owner="${owner}">\n` +
    `${msgs.map((m) => `<msg time="${t(start)}" level="${m.level}">${text(m.text)}</msg>\n`).join('')}` +
    `${args.map((a) => `<arg>${text(a)}</arg>\n`).join('')}<status status="${st}" start="${t(start)}" ` +
    `elapsed="${(elapsed / 1000).toFixed(6)}"${statusText ? `>${text(statusText)}</status>` : '/>'}\n</kw>\n`;
  await out.put(
    `<?xml version="1.0" encoding="UTF-8"?>\n<robot generator="Robot 7.1.1 (Python 3.12.3 on linux)" ` +
      `generated="${t(BASE_MS)}" rpa="false" schemaversion="5">\n<suite id="s1" name="Acceptance" source="/builds/` +
      `app/tests">\n`,
  );
  for (let m = 0; m * SUITES_PER_MODULE * TESTS_PER_SUITE < n; m++) {
    const from = m * SUITES_PER_MODULE * TESTS_PER_SUITE;
    const to = Math.min(n, from + SUITES_PER_MODULE * TESTS_PER_SUITE);
    const mt = tally(seed, from, to);
    await out.put(
      `<suite id="s1-s${m + 1}" name="${camel(moduleName(m))}" source="/builds/app/tests/${moduleName(m)}">\n`,
    );
    for (let s = from / TESTS_PER_SUITE; s * TESTS_PER_SUITE < to; s++) {
      const sid = `s1-s${m + 1}-s${s - from / TESTS_PER_SUITE + 1}`;
      const s0 = BASE_MS + s * TESTS_PER_SUITE * 120;
      let body =
        `<suite id="${sid}" name="Service ${s} Größe" source="/builds/app/tests/${moduleName(m)}/` +
        `service_${s}.robot">\n`;
      body +=
        `<kw name="Connect To Database" owner="DatabaseLibrary" type="SETUP">\n<msg time="${t(s0)}" ` +
        `level="INFO">Connecting using : psycopg2.connect(database=shop_${s}, user=robot, host=db &amp; replica)</` +
        `msg>\n<arg>psycopg2</arg>\n<arg>shop_${s}</arg>\n<status status="PASS" start="${t(s0)}" ` +
        `elapsed="0.012345"/>\n</kw>\n`;
      const st = { passed: 0, failed: 0, skipped: 0 };
      for (let i = s * TESTS_PER_SUITE; i < Math.min(to, (s + 1) * TESTS_PER_SUITE); i++) {
        const c = caseAt(seed, i);
        st[c.status]++;
        body += `<test id="${sid}-t${c.j + 1}" name="${attr(c.title)}" line="${c.line}">\n`;
        body += kw('Log', 'BuiltIn', [`Checking ${c.expected}`], 'PASS', c.startMs, 0.2, [
          { level: 'INFO', text: c.stdout ?? `Checking ${c.expected}` },
        ]);
        body += kw('Set Variable', 'BuiltIn', ['${response}', c.actual], 'PASS', c.startMs + 1, 0.1, [
          { level: 'INFO', text: `\${response} = ${c.actual}` },
        ]);
        if (c.status === 'failed') {
          const trace =
            `Traceback (most recent call last):\n  File "/builds/app/.venv/lib/python3.12/site-packages/` +
            `robot/libraries/BuiltIn.py", line 693, in should_be_equal\n    self._should_be_equal(first, second, ` +
            `msg, values, formatter)\n  File "/builds/app/resources/${moduleName(c.module)}.py", line ${c.line}, ` +
            `in check_${c.suite}\n    raise AssertionError(msg)`;
          body += kw(
            'Should Be Equal',
            'BuiltIn',
            ['${response}', c.expected],
            'FAIL',
            c.startMs + 2,
            c.durationMs,
            [
              { level: 'FAIL', text: c.message! },
              { level: 'DEBUG', text: trace },
            ],
            c.message!,
          );
          body += kw('Capture Page Screenshot', 'SeleniumLibrary', [], 'NOT RUN', c.startMs + 3, 0, []);
          body +=
            `<tag>regression</tag>\n<tag>${moduleName(c.module)}</tag>\n<status status="FAIL" ` +
            `start="${t(c.startMs)}" elapsed="${(c.durationMs / 1000).toFixed(6)}">${text(c.message!)}</status>` +
            `\n</test>\n`;
        } else if (c.status === 'skipped') {
          body += kw(
            'Skip',
            'BuiltIn',
            [c.skipReason!],
            'SKIP',
            c.startMs + 2,
            0.1,
            [{ level: 'SKIP', text: c.skipReason! }],
            c.skipReason!,
          );
          body +=
            `<tag>${moduleName(c.module)}</tag>\n<status status="SKIP" start="${t(c.startMs)}" ` +
            `elapsed="0.000400">${text(c.skipReason!)}</status>\n</test>\n`;
        } else {
          body += kw('Should Be Equal', 'BuiltIn', ['${response}', c.actual], 'PASS', c.startMs + 2, c.durationMs, []);
          body +=
            `<tag>smoke</tag>\n<tag>${moduleName(c.module)}</tag>\n<status status="PASS" ` +
            `start="${t(c.startMs)}" elapsed="${(c.durationMs / 1000).toFixed(6)}"/>\n</test>\n`;
        }
      }
      body +=
        `<status status="${st.failed > 0 ? 'FAIL' : 'PASS'}" start="${t(s0)}" ` +
        `elapsed="${((st.passed + st.failed + st.skipped) * 0.12).toFixed(6)}"/>\n</suite>\n`;
      await out.put(body);
    }
    await out.put(
      `<status status="${mt.failed > 0 ? 'FAIL' : 'PASS'}" start="${t(BASE_MS + from * 120)}" ` +
        `elapsed="${((to - from) * 0.12).toFixed(6)}"/>\n</suite>\n`,
    );
  }
  await out.put(
    `<status status="${all.failed > 0 ? 'FAIL' : 'PASS'}" start="${t(BASE_MS)}" elapsed="${(n * 0.12).toFixed(6)}"/>` +
      `\n</suite>\n<statistics>\n<total>\n<stat pass="${all.passed}" fail="${all.failed}" skip="${all.skipped}">` +
      `All Tests</stat>\n</total>\n<tag>\n</tag>\n<suite>\n</suite>\n</statistics>\n<errors>\n</errors>\n</robot>` +
      `\n`,
  );
  return n;
};

export const generator: FormatGenerator = sized('output.xml', robot);
