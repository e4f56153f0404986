/**
 * XML tokenizers side by side on the same generated JUnit text, one core, in one process: `sax`
 * (strict, as Tally used it before its own tokenizer) and Tally's XmlTokenizer, each driving the
 * JUnit formatter's handler to testcase objects. Runs alternate so both see the same machine state.
 *
 *   npm run bench:xml -- --mb 100 --mix realistic --runs 3
 */
import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import sax from 'sax';
import { junitHandler } from '../formatters/junit/parse.js';
import { XmlTokenizer } from '../lib/formatter/kit/xml-tokenizer.js';
import { MAX_XML_BUFFER_CHARS, MAX_XML_DEPTH, MAX_XML_TAG_CHARS, type XmlHandler } from '../lib/formatter/kit/xml.js';
import { junitFile, type JunitMix } from './generate.js';

const { values } = parseArgs({
  options: {
    mb: { type: 'string', default: '100' },
    mix: { type: 'string', default: 'realistic' },
    runs: { type: 'string', default: '3' },
  },
});
const MiB = 1024 * 1024;

type Driver = (chunks: AsyncIterable<string>, handler: XmlHandler) => Promise<void>;

const drivers: Record<string, Driver> = {
  'sax 1.6 (strict)': async (chunks, handler) => {
    const parser = sax.parser(true, {
      xmlns: false,
      position: true,
      strictEntities: true,
      trim: false,
      normalize: false,
    } as sax.SAXOptions);
    let failure: Error | null = null;
    parser.onerror = (e) => {
      failure ??= e;
    };
    parser.onopentag = (tag) => handler.open(tag.name, tag.attributes as Record<string, string>);
    parser.ontext = (text) => handler.text(text);
    parser.oncdata = (text) => handler.text(text);
    parser.onclosetag = (name) => handler.close(name);
    for await (const chunk of chunks) {
      parser.write(chunk);
      if (failure) throw failure;
    }
    parser.close();
  },
  'Tally XmlTokenizer': async (chunks, handler) => {
    const tok = new XmlTokenizer(handler, {
      maxDepth: MAX_XML_DEPTH,
      maxTagChars: MAX_XML_TAG_CHARS,
      maxValueChars: MAX_XML_BUFFER_CHARS,
    });
    for await (const chunk of chunks) tok.write(chunk);
    tok.end();
  },
};

async function once(file: string, driver: Driver): Promise<{ seconds: number; testcases: number }> {
  let testcases = 0;
  let ids = 0;
  const handler = junitHandler(
    { fileName: 'bench.xml', nextId: () => ++ids, limits: { maxTextChars: 1024 * 1024 }, setProducer: () => undefined },
    (c) => {
      if (c.type === 'test') testcases++;
    },
  );
  const t0 = process.hrtime.bigint();
  await driver(createReadStream(file, { encoding: 'utf8', highWaterMark: 256 * 1024 }), handler);
  handler.end();
  return { seconds: Number(process.hrtime.bigint() - t0) / 1e9, testcases };
}

async function main(): Promise<void> {
  const mb = Number(values.mb);
  const mix = values.mix as JunitMix;
  const runs = Number(values.runs);
  const work = await mkdtemp(path.join(os.tmpdir(), 'tally-xml-bench-'));
  const file = path.join(work, 'bench.xml');
  try {
    const cases = await junitFile(file, mb * MiB, 11, mix);
    process.stdout.write(
      `${new Date().toISOString()} node ${process.version}, ${os.cpus()[0]?.model ?? ''}; ${mb} MiB of JUnit ` +
        `(${mix} mix, ${cases} testcases), ${runs} runs each, alternating\n\n`,
    );
    const best: Record<string, number> = {};
    // Warm-up: a fresh process runs its first tens of MB slower.
    for (const d of Object.values(drivers)) await once(file, d);
    for (let r = 0; r < runs; r++) {
      for (const [name, d] of Object.entries(drivers)) {
        const { seconds, testcases } = await once(file, d);
        if (testcases !== cases) throw new Error(`${name} found ${testcases} testcases, the generator wrote ${cases}`);
        best[name] = Math.min(best[name] ?? Infinity, seconds);
      }
    }
    const base = best['sax 1.6 (strict)']!;
    process.stdout.write(
      '| tokenizer + JUnit handler | best of runs, s | MB/s | ms per MiB | vs sax |\n|---|---:|---:|---:|---:|\n',
    );
    for (const [name, seconds] of Object.entries(best)) {
      process.stdout.write(
        `| ${name} | ${seconds.toFixed(2)} | ${((mb * MiB) / 1e6 / seconds).toFixed(1)} | ` +
          `${((seconds * 1000) / mb).toFixed(1)} | ${(base / seconds).toFixed(2)}× |\n`,
      );
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
