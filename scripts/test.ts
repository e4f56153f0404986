/**
 * `npm test`: starts a MongoDB-wire server for the suite (see scripts/mongo-wire.ts), runs tap with
 * its URL in TALLY_TEST_MONGODB_URL so every store test and HTTP test runs against both stores, and
 * stops it. Without one, the MongoDB half is skipped with a line saying why; TALLY_REQUIRE_MONGODB=1
 * (set by .ci/run) turns that skip into a failure.
 */
import { spawn } from 'node:child_process';
import { ferretdbBinary, mongoWireForTests } from './mongo-wire.js';

const log = (line: string): void => void process.stderr.write(`[tally test] ${line}\n`);

const wire = await mongoWireForTests(log);
const env = { ...process.env };
if ('unavailable' in wire) {
  log(`MongoDB-wire tests ${process.env.TALLY_REQUIRE_MONGODB === '1' ? 'will FAIL' : 'are skipped'}: ${wire.unavailable}`);
  delete env.TALLY_TEST_MONGODB_URL;
} else {
  log(`MongoDB-wire server for tests: ${wire.kind} at ${wire.url}`);
  env.TALLY_TEST_MONGODB_URL = wire.url;
  env.TALLY_TEST_MONGODB_KIND = wire.kind;
  if (wire.kind === 'ferretdb') env.TALLY_FERRETDB_BIN = await ferretdbBinary();
}

const tap = spawn(new URL('../node_modules/.bin/tap', import.meta.url).pathname, process.argv.slice(2), { stdio: 'inherit', env });
const code = await new Promise<number>((resolve) => tap.on('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0))));
if (!('unavailable' in wire)) await wire.stop();
process.exit(code);
