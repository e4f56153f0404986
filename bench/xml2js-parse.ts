/**
 * The peers' way, for comparison: every entry of a zip read whole and parsed into a DOM with
 * xml2js (dorny/test-reporter, Jenkins-style). Prints seconds, testcases and peak RSS as JSON.
 *   node --import tsx bench/xml2js-parse.ts ARCHIVE.zip
 */
import { open } from 'yauzl-promise';
import { parseStringPromise } from 'xml2js';
import { readFileSync } from 'node:fs';

const zipPath = process.argv[2];
if (!zipPath) throw new Error('usage: xml2js-parse.ts ARCHIVE.zip');
const t0 = process.hrtime.bigint();
let testcases = 0;
const zip = await open(zipPath);
try {
  for await (const entry of zip) {
    if (entry.filename.endsWith('/')) continue;
    const chunks: Buffer[] = [];
    for await (const c of await entry.openReadStream()) chunks.push(c as Buffer);
    const doc = await parseStringPromise(Buffer.concat(chunks).toString('utf8'));
    const walk = (node: any): void => {
      if (!node || typeof node !== 'object') return;
      if (Array.isArray(node.testcase)) testcases += node.testcase.length;
      for (const v of Object.values(node)) if (typeof v === 'object') Array.isArray(v) ? v.forEach(walk) : walk(v);
    };
    walk(doc);
  }
} finally {
  await zip.close();
}
const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
const hwm = Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) * 1024;
process.stdout.write(`${JSON.stringify({ seconds, testcases, peakRss: hwm })}\n`);
