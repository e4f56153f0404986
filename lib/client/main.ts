/**
 * The entry of `tally-upload.mjs`, the upload command as one dependency-free file that every Tally
 * serves at `/tally-upload.mjs` (bundled by scripts/build-client.ts at `npm run build`), so a CI
 * runner with Node and curl uploads without installing anything.
 */
import { runUpload } from './cli.js';

runUpload(process.argv.slice(2), {
  command: 'node tally-upload.mjs',
  env: process.env,
  cwd: process.cwd(),
  out: process.stdout,
  err: process.stderr,
}).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`tally: failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
