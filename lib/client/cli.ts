/**
 * The upload command's arguments, usage and exit code, shared by `tally upload` and the standalone
 * `tally-upload.mjs` that a Tally serves to CI runners (one file, no dependencies: see main.ts).
 */
import { parseArgs } from 'node:util';
import { ciContext, ciFields } from './ci-env.js';
import { upload } from './upload.js';
import type { ProgressOut } from './progress.js';

export interface UploadIo {
  /** How the command is run, for its usage: `tally upload` or `node tally-upload.mjs`. */
  command: string;
  env: Record<string, string | undefined>;
  cwd: string;
  out: ProgressOut;
  err: { write(text: string): unknown };
}

export function uploadUsage(command: string): string {
  return [
    `Usage: ${command} --url URL --profile ID [--formatter KEY] [--tag k:v]... [--attachment PATH]... [--strict]`,
    `${' '.repeat(`Usage: ${command} `.length)}PATH...`,
    '',
    'Uploads test results to a Tally profile as one request: a single file as it is, several files',
    'zipped on the fly (no temp file), entries named relative to their common folder.',
    '',
    '  PATH             a file, a directory (every file under it, at any depth; hidden ones left out),',
    "                   or a glob such as 'build/**/TEST-*.xml' (quote it so the shell leaves it alone)",
    '  --url URL        the Tally to upload to (https://tally.example.com)',
    '  --profile ID     the profile the report goes to',
    '  --formatter KEY  the format (junit, testng, ...); without it Tally detects each file',
    '  --tag k:v        a tag of the report (branch:main); repeatable',
    '  --attachment P   a screenshot or log the results refer to; a file, directory or glob; repeatable',
    '  --strict         a warning fails the step too',
    '',
    'The CI context (system, build number and URL, branch, commit, job) is read from the variables of',
    'GitHub Actions, GitLab CI, Jenkins, Buildkite, CircleCI, Azure Pipelines and Gitea/Forgejo Actions',
    'and sent with the results (the ci_* fields), so the report links the run.',
    '',
    'The API key comes from the environment variable TALLY_API_KEY (never a flag: flags show in',
    "process lists and CI logs); keep it in your CI's secret variables.",
    '',
    'The last line starts "tally: ok" or "tally: failed:" and says what failed. Exit code 0: the',
    'results landed; 1: they did not (no file matched, no connection, an error message) or --strict',
    'and a warning; 2: a usage error.',
    '',
    '`tally upload` and `node tally-upload.mjs` (served by every Tally at /tally-upload.mjs; Node 18',
    'or later, nothing to install) are the same command.',
    '',
  ].join('\n');
}

class UsageError extends Error {}

function parse(argv: string[]) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      help: { type: 'boolean', short: 'h' },
      url: { type: 'string' },
      profile: { type: 'string' },
      formatter: { type: 'string' },
      tag: { type: 'string', multiple: true },
      attachment: { type: 'string', multiple: true },
      strict: { type: 'boolean', default: false },
    },
  });
  return { values, positionals };
}

/** Runs the upload command; resolves to its exit code (0 landed, 1 did not, 2 usage error). */
export async function runUpload(argv: string[], io: UploadIo): Promise<number> {
  let args: ReturnType<typeof parse>;
  try {
    args = parse(argv);
    if (args.values.help) {
      io.out.write(uploadUsage(io.command));
      return 0;
    }
    if (!args.values.url || !args.values.profile) throw new UsageError('upload needs --url and --profile');
    // The key comes from the environment only: a flag would show in process lists and CI logs.
    if (!io.env.TALLY_API_KEY)
      throw new UsageError('the API key is read from the environment variable TALLY_API_KEY, which is not set');
    if (args.positionals.length === 0) throw new UsageError('upload needs at least one file, directory or glob');
  } catch (e) {
    if (!(e instanceof UsageError) && !(e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) throw e;
    io.err.write(`tally: ${(e as Error).message}\n\n${uploadUsage(io.command)}`);
    return 2;
  }
  const { values, positionals } = args;
  const ci = ciContext(io.env);
  if (ci.provider !== null)
    io.out.write(
      `tally: ${ci.provider} build ${ci.build_number ?? '?'}` +
        `${ci.branch ? ` on ${ci.branch}` : ''}${ci.commit ? ` at ${ci.commit.slice(0, 12)}` : ''}` +
        `${ci.pull_request ? ` (pull request ${ci.pull_request})` : ''}\n`,
    );
  const result = await upload({
    url: values.url!,
    profile: values.profile!,
    apiKey: io.env.TALLY_API_KEY!,
    formatter: values.formatter ?? null,
    tags: values.tag ?? [],
    fields: ciFields(ci),
    attachments: values.attachment ?? [],
    patterns: positionals,
    strict: values.strict ?? false,
    cwd: io.cwd,
    out: io.out,
  });
  return result.exitCode;
}
