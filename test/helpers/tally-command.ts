/**
 * How a test runs the `tally` command. Under `npm test`, which builds first, it is the built
 * `dist/bin/tally.js`: what `npm start` and the image run, and without compiling the sources again
 * in each of the suite's ~60 command processes (a second of CPU each). A test file run on its own
 * (`npx tap test/cli.test.ts`) runs the sources through tsx, so it sees the code as edited.
 */
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const built = process.env.TALLY_TEST_BUILT === '1';
// By path, not by name: a command run in a user's folder would not resolve `tsx`.
const tsx = pathToFileURL(path.join(root, 'node_modules/tsx/dist/loader.mjs')).href;

const loader: readonly string[] = built ? [] : ['--import', tsx];
/** The built module under dist/ (its path from there), or its source. */
const file = (output: string, source: string): string => path.join(root, built ? `dist/${output}` : source);
const bin = file('bin/tally.js', 'bin/tally.ts');
const register = pathToFileURL(file('lib/telemetry/register.js', 'lib/telemetry/register.ts')).href;

/** Node's arguments for `tally …`: prepend them to the command's own. */
export const TALLY: readonly string[] = [...loader, bin];

/** The same, with telemetry loaded first, as `npm start` loads it. */
export const TALLY_WITH_TELEMETRY: readonly string[] = [...loader, '--import', register, bin];
