/**
 * Deterministic (seeded) JUnit generators: single files of any size and zips of many files.
 * Realistic content: failures with stack traces, skips, system-out in CDATA, entities, non-ASCII.
 * Everything is streamed: nothing of the output is held whole.
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import yazl from 'yazl';
import { PassThrough } from 'node:stream';

/** mulberry32: small, fast, seeded. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ['parses', 'rejects', 'handles', 'überprüft', 'returns', 'retries', 'streams', 'caches', 'größe', 'ключ', 'エラー'];

function testcase(r: () => number, i: number): string {
  const name = `${WORDS[Math.floor(r() * WORDS.length)]} case ${i} &amp; more`;
  const time = (r() * 2).toFixed(3);
  const roll = r();
  let inner = '';
  if (roll < 0.06) {
    inner = `<failure message="expected &lt;${i}&gt; but was &lt;${i + 1}&gt;" type="org.opentest4j.AssertionFailedError">org.opentest4j.AssertionFailedError: expected &lt;${i}&gt;
\tat com.example.Service${i % 97}Test.check(Service${i % 97}Test.java:${40 + (i % 60)})
\tat java.base/jdk.internal.reflect.DirectMethodHandleAccessor.invoke(DirectMethodHandleAccessor.java:103)
\tat java.base/java.lang.reflect.Method.invoke(Method.java:580)
</failure>`;
  } else if (roll < 0.08) inner = '<error message="boom" type="java.lang.IllegalStateException">java.lang.IllegalStateException: boom\n\tat com.example.X.y(X.java:1)</error>';
  else if (roll < 0.12) inner = '<skipped message="disabled on CI"/>';
  if (r() < 0.2) inner += `<system-out><![CDATA[log line ${i}: résumé ✓ <ok> & done\n]]></system-out>`;
  return `    <testcase name="${name}" classname="com.example.Service${i % 97}Test" time="${time}">${inner}</testcase>\n`;
}

/** Writes one JUnit file of about `bytes` to `out`; returns the number of testcases. */
export async function writeJunit(out: Writable, bytes: number, seed: number, suite = 'com.example.Suite'): Promise<number> {
  const r = rng(seed);
  let written = 0;
  let cases = 0;
  const write = async (s: string): Promise<void> => {
    written += Buffer.byteLength(s);
    if (!out.write(s)) await once(out, 'drain');
  };
  await write(`<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>\n  <testsuite name="${suite}" timestamp="2026-11-01T10:00:00">\n`);
  let block = '';
  while (written + block.length < bytes - 40) {
    block += testcase(r, cases++);
    if (block.length > 64 * 1024) {
      await write(block);
      block = '';
    }
  }
  await write(`${block}  </testsuite>\n</testsuites>\n`);
  return cases;
}

export async function junitFile(path: string, bytes: number, seed: number): Promise<number> {
  const out = createWriteStream(path);
  const n = await writeJunit(out, bytes, seed);
  out.end();
  await once(out, 'close');
  return n;
}

/** A zip of `files` JUnit files totalling about `bytes` uncompressed. */
export async function junitZip(path: string, bytes: number, files: number, seed: number): Promise<number> {
  const zip = new yazl.ZipFile();
  const out = createWriteStream(path);
  zip.outputStream.pipe(out);
  let cases = 0;
  for (let i = 0; i < files; i++) {
    const pass = new PassThrough();
    zip.addReadStream(pass, `reports/TEST-com.example.Suite${i}.xml`);
    cases += await writeJunit(pass, Math.floor(bytes / files), seed + i, `com.example.Suite${i}`);
    pass.end();
  }
  zip.end();
  await once(out, 'close');
  return cases;
}
