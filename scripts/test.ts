/**
 * `npm test`: starts a MongoDB-wire server for the suite (see scripts/mongo-wire.ts), runs tap with
 * its URL in TALLY_TEST_MONGODB_URL so every store test and HTTP test runs against both stores, and
 * stops it. Without one, the MongoDB half is skipped with a line saying why; TALLY_REQUIRE_MONGODB=1
 * (set by .ci/run) turns that skip into a failure. Chromium for the browser tests is installed first
 * when it is missing.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { ferretdbBinary, mongoWireForTests } from './mongo-wire.js';
import { CHROMIUM } from './browser.js';

const log = (line: string): void => void process.stderr.write(`[tally test] ${line}\n`);

/**
 * The browser tests (test/web/) need Debian's chromium. Missing, it is installed with apt-get
 * (root on Debian, as in CI); where that cannot be done the run stops here with what to do — the
 * browser tests are never skipped.
 */
function ensureChromium(): void {
  if (existsSync(CHROMIUM)) return;
  const root = process.getuid?.() === 0;
  if (root && existsSync('/usr/bin/apt-get')) {
    log(`${CHROMIUM} is missing: installing Debian's chromium (apt-get install -y chromium)`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    let r = spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], { stdio: 'inherit', env });
    if (r.status !== 0) {
      spawnSync('apt-get', ['update'], { stdio: 'inherit', env });
      r = spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], { stdio: 'inherit', env });
    }
    if (r.status === 0 && existsSync(CHROMIUM)) return;
  }
  log(
    `${CHROMIUM} is missing and could not be installed${root ? '' : ' (not root)'}. The browser tests need it: ` +
      `run \`apt-get install -y chromium\` as root, or set TALLY_CHROMIUM to a chromium binary.`,
  );
  process.exit(1);
}

ensureChromium();

const wire = await mongoWireForTests(log);
const env = { ...process.env };
if ('unavailable' in wire) {
  log(
    `MongoDB-wire tests ${process.env.TALLY_REQUIRE_MONGODB === '1' ? 'will FAIL' : 'are skipped'}: ` +
      `${wire.unavailable}`,
  );
  delete env.TALLY_TEST_MONGODB_URL;
} else {
  log(`MongoDB-wire server for tests: ${wire.kind} at ${wire.url}`);
  env.TALLY_TEST_MONGODB_URL = wire.url;
  env.TALLY_TEST_MONGODB_KIND = wire.kind;
  if (wire.kind === 'ferretdb') env.TALLY_FERRETDB_BIN = await ferretdbBinary();
}

const tap = spawn(new URL('../node_modules/.bin/tap', import.meta.url).pathname, process.argv.slice(2), {
  stdio: 'inherit',
  env,
});
const code = await new Promise<number>((resolve) => tap.on('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0))));
if (!('unavailable' in wire)) await wire.stop();
process.exit(code);
