/**
 * Builds dist/client/tally-upload.mjs: the upload command (lib/client/) and the two packages it uses
 * (tinyglobby, yazl, with theirs) bundled into one ES module that runs on Node 18 or later with no
 * node_modules, which every Tally serves at /tally-upload.mjs. Part of `npm run build`:
 *
 *   node --import tsx scripts/build-client.ts
 *
 * Not minified, so whoever runs it in CI can read what they run; the licences of the bundled
 * packages close the file.
 */
import { build } from 'esbuild';
import { existsSync, readFileSync, readdirSync, appendFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const CLIENT_FILE = path.join(root, 'dist', 'client', 'tally-upload.mjs');
const version = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;

const banner = [
  '#!/usr/bin/env node',
  `// tally-upload.mjs, Tally ${version}: \`tally upload\` as one file (Node 18 or later, no dependencies).`,
  '// Run `node tally-upload.mjs --help`. The API key comes from the TALLY_API_KEY environment variable.',
  // The bundled CommonJS packages require Node's own modules; an ES module has no `require` of its own.
  "import { createRequire as __tallyCreateRequire } from 'node:module';",
  'const require = __tallyCreateRequire(import.meta.url);',
].join('\n');

/** The folder of the npm package a bundled input belongs to (`node_modules/<name>` or `<@scope>/<name>`). */
function packageDir(input: string): string | null {
  const m = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
  return m ? path.resolve(root, m[1]!) : null;
}

function licenceOf(dir: string): string {
  const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
    name: string;
    version: string;
    license?: string;
  };
  const file = readdirSync(dir).find((f) => /^licen[cs]e/i.test(f));
  const text = file ? readFileSync(path.join(dir, file), 'utf8').trim() : `(${pkg.license ?? 'no licence file'})`;
  return `${pkg.name} ${pkg.version}\n\n${text}`;
}

export async function buildClient(outfile = CLIENT_FILE): Promise<void> {
  const result = await build({
    entryPoints: [path.join(root, 'lib', 'client', 'main.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node18',
    banner: { js: banner },
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
  });
  const packages = [
    ...new Set(
      Object.keys(result.metafile.inputs)
        .map(packageDir)
        .filter((d): d is string => d !== null && existsSync(path.join(d, 'package.json'))),
    ),
  ].sort();
  const licences = packages.map(licenceOf).join('\n\n---\n\n');
  appendFileSync(
    outfile,
    `\n/*\nThe packages bundled into this file, and their licences:\n\n${licences.replace(/\*\//g, '* /')}\n*/\n`,
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await buildClient();
