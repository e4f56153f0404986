/**
 * The bench generator of JUnit XML (bench/formatters.ts runs it; the RSS, archive, load and soak
 * benches write their JUnit files and zips with it through bench/generate.ts): deterministic
 * (seeded) Surefire-style files of any size. Realistic content: failures with stack traces, skips,
 * system-out in CDATA, entities, non-ASCII. Everything is streamed: nothing of the output is held
 * whole.
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import type { Writable } from 'node:stream';
import type { FormatGenerator } from '../../bench/cases.js';
import { rng } from '../../bench/random.js';

const WORDS = [
  'parses',
  'rejects',
  'handles',
  'überprüft',
  'returns',
  'retries',
  'streams',
  'caches',
  'größe',
  'ключ',
  'エラー',
];

/**
 * How much a testcase carries besides its tag. `realistic` matches the ~1,660 testcases/MB of the
 * public result files in ../shared/fixtures (long stack traces, logs in system-out); `dense` is
 * ~6,650 testcases/MB, the worst case for per-testcase costs (store rows, allocations).
 */
export type JunitMix = 'realistic' | 'dense';

function stackTrace(i: number, frames: number): string {
  let s = '';
  for (let f = 0; f < frames; f++)
    s +=
      `\tat com.example.layer${f % 7}.Component${(i + f) % 89}.call${f}(Component${(i + f) % 89}.java:` +
      `${20 + ((i * 7 + f) % 300)})\n`;
  return s;
}

function logLines(r: () => number, i: number, lines: number): string {
  let s = '';
  for (let l = 0; l < lines; l++)
    s +=
      `2026-11-01 10:00:${String(l % 60).padStart(2, '0')}.${String(Math.floor(r() * 1000)).padStart(3, '0')} ` +
      `INFO  [worker-${l % 4}] step ${l} of case ${i}: résumé ✓ <ok> & done\n`;
  return s;
}

function testcase(r: () => number, i: number, mix: JunitMix): string {
  const name = `${WORDS[Math.floor(r() * WORDS.length)]} case ${i} &amp; more`;
  const time = (r() * 2).toFixed(3);
  const roll = r();
  const realistic = mix === 'realistic';
  let inner = '';
  if (roll < 0.06) {
    inner =
      `<failure message="expected &lt;${i}&gt; but was &lt;${i + 1}&gt;" type="org.opentest4j.AssertionFailedError">` +
      `org.opentest4j.AssertionFailedError: expected &lt;${i}&gt;\n` +
      `\tat com.example.Service${i % 97}Test.check(Service${i % 97}Test.java:${40 + (i % 60)})\n` +
      `${realistic ? stackTrace(i, 18 + (i % 12)) : ''}` +
      '\tat java.base/jdk.internal.reflect.DirectMethodHandleAccessor.invoke(DirectMethodHandleAccessor.java:103)\n' +
      '\tat java.base/java.lang.reflect.Method.invoke(Method.java:580)\n' +
      '</failure>';
  } else if (roll < 0.08)
    inner =
      `<error message="boom" type="java.lang.IllegalStateException">java.lang.IllegalStateException: ` +
      `boom\n\tat com.example.X.y(X.java:1)${realistic ? `\n${stackTrace(i, 10)}` : ''}</error>`;
  else if (roll < 0.12) inner = '<skipped message="disabled on CI"/>';
  if (realistic) {
    if (r() < 0.35) inner += `<system-out><![CDATA[${logLines(r, i, 4 + Math.floor(r() * 8))}]]></system-out>`;
  } else if (r() < 0.2) inner += `<system-out><![CDATA[log line ${i}: résumé ✓ <ok> & done\n]]></system-out>`;
  const where = realistic ? ` file="src/test/java/com/example/Service${i % 97}Test.java" line="${40 + (i % 60)}"` : '';
  return (
    `    <testcase name="${name}" classname="com.example.Service${i % 97}Test" time="${time}"${where}>` +
    `${inner}</testcase>\n`
  );
}

/** Writes one JUnit file of about `bytes` to `out`; returns the number of testcases. */
export async function writeJunit(
  out: Writable,
  bytes: number,
  seed: number,
  suite = 'com.example.Suite',
  mix: JunitMix = 'realistic',
): Promise<number> {
  const r = rng(seed);
  let written = 0;
  let cases = 0;
  const write = async (s: string): Promise<void> => {
    written += Buffer.byteLength(s);
    if (!out.write(s)) await once(out, 'drain');
  };
  await write(
    `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>\n  <testsuite name="${suite}" ` +
      `timestamp="2026-11-01T10:00:00">\n`,
  );
  let block = '';
  while (written + block.length < bytes - 40) {
    block += testcase(r, cases++, mix);
    if (block.length > 64 * 1024) {
      await write(block);
      block = '';
    }
  }
  await write(`${block}  </testsuite>\n</testsuites>\n`);
  return cases;
}

export async function junitFile(
  path: string,
  bytes: number,
  seed: number,
  mix: JunitMix = 'realistic',
): Promise<number> {
  const out = createWriteStream(path);
  const n = await writeJunit(out, bytes, seed, 'com.example.Suite', mix);
  out.end();
  await once(out, 'close');
  return n;
}

export const generator: FormatGenerator = {
  fileName: 'TEST-com.example.Suite.xml',
  generate: (path, bytes, seed) => junitFile(path, bytes, seed),
};
