/**
 * JUnit inputs for the benches and fault tests: single files of any size, whole buffers and zips of
 * many files, all written by the JUnit generator of formatters/junit/generate.ts (deterministic,
 * seeded, streamed: nothing of the output is held whole).
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import yazl from 'yazl';
import { PassThrough } from 'node:stream';

import { writeJunit, type JunitMix } from '../formatters/junit/generate.js';
import { rng } from './random.js';

export { rng };
export { junitFile, writeJunit, type JunitMix } from '../formatters/junit/generate.js';

/** A small JUnit file of about `kb` KiB, whole (for load runs that send the same body many times). */
export async function junitBuffer(kb: number, seed: number): Promise<Buffer> {
  const pass = new PassThrough();
  const chunks: Buffer[] = [];
  pass.on('data', (c: Buffer) => chunks.push(c));
  await writeJunit(pass, kb * 1024, seed);
  pass.end();
  return Buffer.concat(chunks);
}

/** A zip of `files` JUnit files totalling about `bytes` uncompressed. */
export async function junitZip(
  path: string,
  bytes: number,
  files: number,
  seed: number,
  mix: JunitMix = 'realistic',
): Promise<number> {
  const zip = new yazl.ZipFile();
  const out = createWriteStream(path);
  zip.outputStream.pipe(out);
  let cases = 0;
  for (let i = 0; i < files; i++) {
    const pass = new PassThrough();
    zip.addReadStream(pass, `reports/TEST-com.example.Suite${i}.xml`);
    cases += await writeJunit(pass, Math.floor(bytes / files), seed + i, `com.example.Suite${i}`, mix);
    pass.end();
  }
  zip.end();
  await once(out, 'close');
  return cases;
}
