#!/usr/bin/env node
/**
 * The `tally` command: `serve`, and the admin tasks that touch the store directly
 * (`account create`, `profile create`, `key rotate`, `key import`, `user create`, `vacuum`).
 */
import { parseArgs } from 'node:util';
import { builtinFormatters } from '../formatters/index.js';
import { IMPORTED_KEY, KeyImportError, createAccountWithKey, importKey, rotateKey } from '../lib/api-keys.js';
import { MAX_NUMBER, NumberTakenError, parseNumber } from '../lib/store/numbers.js';
import { checkProfileName } from '../lib/profile-name.js';
import { loadConfig, type Config } from '../lib/config.js';
import { jsonLogger } from '../lib/log.js';
import { openStore } from './open-store.js';
import type { Store } from '../lib/store/store.js';
import { createTally } from '../plugins/server.js';
import { activeTelemetry } from '../lib/telemetry/spans.js';
import {
  FormatterLoadError,
  loadFormatterModules,
  loadFormatters,
  type LoadedModule,
} from '../lib/formatter/loader.js';
import { runUpload } from '../lib/client/cli.js';
import { UserError, createUserWithPassword } from '../lib/users.js';
import { builtinFixtures, checkFormatter } from '../lib/formatter/check.js';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const { minLength: KEY_MIN, maxLength: KEY_MAX } = IMPORTED_KEY;

const USAGE = `Usage:
  tally serve                                   start the service (PORT, HOST, TALLY_DATA_DIR, MONGODB_URL)
  tally account create NAME [--json]            create an account and print its API key (shown only here)
  tally profile create NAME --account ID [--id N] [--json]
                                                create a profile; --id keeps the id its pipelines use
  tally key rotate --account ID [--json]        issue a new key; the old one stops working
  tally key import --account ID KEY|- [--json]  register a key the account's pipelines already use
                                                (${KEY_MIN}–${KEY_MAX} visible ASCII characters; - reads it
                                                from stdin); stored hashed, never shown again
  tally user create --account ID EMAIL [--json] add a person who signs in to the web interface; prints a
                                                one-time password (shown only here)
  tally vacuum [--json]                         rewrite the embedded database whole, with Tally stopped: once, for a
                                                large database made before incremental vacuum (README "Retention")
  tally formatter check PATH                    run the conformance kit on a formatter plugin: a folder or module
                                                file (with or without ./) or an installed npm package
  tally upload --url URL --profile ID [--formatter KEY] [--tag k:v]... [--attachment PATH]... [--strict] PATH...
                                                upload results from CI (key from TALLY_API_KEY); a PATH is a
                                                file, a directory (every file under it) or a glob; exits 1
                                                when they did not land; \`tally upload --help\` says more
`;

class UsageError extends Error {}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function print(json: boolean, value: Record<string, unknown>, text: string): void {
  process.stdout.write(json ? `${JSON.stringify(value)}\n` : `${text}\n`);
}

async function withStore<T>(config: Config, f: (store: Store) => Promise<T>): Promise<T> {
  const store = await openStore(config);
  try {
    return await f(store);
  } finally {
    await store.close();
  }
}

async function serve(config: Config): Promise<void> {
  const log = jsonLogger();
  const store = await openStore(config, log);
  if ((await store.accounts.count()) === 0) await createDemo(store, config);
  const external = await loadFormatters(config.formatterModules);
  if (external.length > 0) log('formatters.loaded', { keys: external.map((f) => f.key) });
  const tally = await createTally({ config, store, formatters: [...builtinFormatters, ...external], log });
  // Logs server.started: what it listens on and the URLs to open.
  await tally.start();
  let stopping = false;
  const stop = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    log('server.stopping', { signal });
    await tally.stop();
    await store.close();
    // Spans and metrics still buffered are sent before the process goes.
    await activeTelemetry()
      ?.shutdown()
      .catch(() => undefined);
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

/**
 * First start on an empty store: a demo account, profile and user, so a newcomer imports within a
 * minute and opens the web interface right after.
 */
async function createDemo(store: Store, config: Config): Promise<void> {
  const { accountId, apiKey } = await createAccountWithKey(store, 'demo');
  const profile = await store.profiles.create(accountId, 'demo');
  const { user, password } = await createUserWithPassword(store, accountId, 'demo@tally.invalid');
  const host = config.host === '0.0.0.0' ? 'localhost' : config.host;
  const base = (config.publicUrl ?? `http://${host}:${config.port}`).replace(/\/+$/, '');
  process.stdout.write(
    [
      '',
      'Tally created a demo account on this empty data dir. Its API key is shown only now:',
      `  account id: ${accountId}`,
      `  profile id: ${profile.number}`,
      `  API key:    ${apiKey}`,
      '',
      'Import a small JUnit file (the command carries the file; paste all of it, down to EOF):',
      '',
      ...demoImportCommand(apiKey, `${base}/api/v2/profile/${profile.number}/import/junit`),
      '',
      `Open the web interface at ${base}/signin and sign in as ${user.email}`,
      `with this one-time password (shown only now; you choose your own at the first sign-in):`,
      `  ${password}`,
      '',
    ].join('\n') + '\n',
  );
}

/**
 * A command that works as printed: the JUnit file is a here-doc sent as the file[] part
 * (`@-;filename=…`), so nothing has to exist on disk. Lines are not indented: a here-doc ends
 * only at an `EOF` at the start of a line.
 */
function demoImportCommand(apiKey: string, importUrl: string): string[] {
  return [
    `curl -sS -w '\\n' -H 'x-api-key: ${apiKey}' -F 'file[]=@-;filename=results.xml' '${importUrl}' <<'EOF'`,
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<testsuite name="demo" tests="2" failures="1">',
    '  <testcase classname="demo.Checkout" name="adds an item"/>',
    '  <testcase classname="demo.Checkout" name="applies a coupon">',
    '    <failure message="expected 90, got 100">at Checkout.applyCoupon (checkout.test.js:12:5)</failure>',
    '  </testcase>',
    '</testsuite>',
    'EOF',
  ];
}

/** The folder holding the built-in formatters (and their fixtures), from a checkout. */
function builtinFormattersDir(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 4; i++, dir = path.dirname(dir))
    if (existsSync(path.join(dir, 'formatters', 'index.ts'))) return path.join(dir, 'formatters');
  return path.join(process.cwd(), 'formatters');
}

async function checkCommand(target: string): Promise<void> {
  let modules: LoadedModule[];
  try {
    modules = await loadFormatterModules([target], process.cwd(), 'tally formatter check');
  } catch (e) {
    if (!(e instanceof FormatterLoadError)) throw e;
    process.stderr.write(`${e.message}\n`);
    process.exitCode = 1;
    return;
  }
  const others = builtinFixtures(builtinFormattersDir());
  let failed = 0;
  for (const m of modules)
    for (const f of m.formatters) {
      // Fixtures sit beside the formatter's module: DIR/fixtures, or DIR/<key>/fixtures when one module has several.
      const own =
        [path.join(m.dir, f.key, 'fixtures'), path.join(m.dir, 'fixtures')].find((d) => existsSync(d)) ??
        path.join(m.dir, 'fixtures');
      process.stdout.write(`${f.key} (${f.title}) from ${path.relative(process.cwd(), m.file) || m.file}\n`);
      for (const c of await checkFormatter(f, { ownFixtures: own, others })) {
        if (!c.ok) failed++;
        process.stdout.write(`  ${c.ok ? 'ok  ' : 'FAIL'} ${c.name}${c.detail && !c.ok ? ` — ${c.detail}` : ''}\n`);
      }
    }
  process.stdout.write(failed ? `\n${failed} check(s) failed\n` : '\nall checks passed\n');
  if (failed) process.exitCode = 1;
}

async function main(argv: string[]): Promise<void> {
  // The upload command has its own arguments (and is also served as tally-upload.mjs): lib/client/.
  if (argv[0] === 'upload') {
    process.exitCode = await runUpload(argv.slice(1), {
      command: 'tally upload',
      env: process.env,
      cwd: process.cwd(),
      out: process.stdout,
      err: process.stderr,
    });
    return;
  }
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      json: { type: 'boolean', default: false },
      account: { type: 'string' },
      id: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, sub, name] = positionals;
  const json = values.json ?? false;
  if (values.help || !command) {
    process.stdout.write(USAGE);
    return;
  }
  const config = loadConfig();
  if (command === 'serve') return serve(config);
  if (command === 'account' && sub === 'create') {
    if (!name) throw new UsageError('account create needs a NAME');
    const { accountId, apiKey } = await withStore(config, (s) => createAccountWithKey(s, name));
    return print(
      json,
      { account_id: accountId, api_key: apiKey },
      `account id: ${accountId}\nAPI key:    ${apiKey}\n(the key is shown only now)`,
    );
  }
  if (command === 'profile' && sub === 'create') {
    if (!name || !values.account) throw new UsageError('profile create needs a NAME and --account ID');
    const accountId = values.account;
    // The same rule as the API and the web form: a name one of them refuses is refused here too.
    const checked = checkProfileName(name);
    if ('problem' in checked) throw new UsageError(`profile_name_invalid: ${checked.problem}`);
    const chosen = values.id === undefined ? undefined : parseNumber(values.id);
    if (chosen === null) throw new UsageError(`--id takes a whole number from 1 to ${MAX_NUMBER}, not "${values.id}"`);
    const profile = await withStore(config, async (s) => {
      if (!(await s.accounts.get(accountId))) throw new UsageError(`there is no account ${accountId}`);
      try {
        return await s.profiles.create(accountId, checked.name, chosen === undefined ? {} : { number: chosen });
      } catch (e) {
        if (!(e instanceof NumberTakenError)) throw e;
        const holder = await s.profiles.get(e.number);
        const by = holder ? ` by profile "${holder.name}" of account ${holder.accountId}` : '';
        throw new UsageError(
          `profile id ${e.number} is taken${by}; choose another --id, or leave it out for the next free one`,
        );
      }
    });
    return print(json, { profile_id: profile.number, uuid: profile.id }, `profile id: ${profile.number}`);
  }
  if (command === 'key' && sub === 'rotate') {
    if (!values.account) throw new UsageError('key rotate needs --account ID');
    const accountId = values.account;
    const apiKey = await withStore(config, async (s) => {
      if (!(await s.accounts.get(accountId))) throw new UsageError(`there is no account ${accountId}`);
      return rotateKey(s, accountId);
    });
    return print(
      json,
      { account_id: accountId, api_key: apiKey },
      `new API key: ${apiKey}\n(the previous key no longer works)`,
    );
  }
  if (command === 'key' && sub === 'import') {
    if (!name || !values.account)
      throw new UsageError('key import needs --account ID and the KEY (or - to read it from stdin)');
    const accountId = values.account;
    // `-` keeps the key out of the shell's history and the process list; one final newline is not part of it.
    const apiKey = name === '-' ? (await readStdin()).replace(/\r?\n$/, '') : name;
    const record = await withStore(config, async (s) => {
      try {
        return await importKey(s, accountId, apiKey);
      } catch (e) {
        throw e instanceof KeyImportError ? new UsageError(e.message) : e;
      }
    });
    return print(
      json,
      { account_id: accountId, key_id: record.keyId },
      `key imported for account ${accountId} (key id ${record.keyId}); requests with it are accepted from now on`,
    );
  }
  if (command === 'user' && sub === 'create') {
    if (!name || !values.account) throw new UsageError('user create needs an EMAIL and --account ID');
    const accountId = values.account;
    const email = name;
    const { user, password } = await withStore(config, async (s) => {
      try {
        return await createUserWithPassword(s, accountId, email);
      } catch (e) {
        throw e instanceof UserError ? new UsageError(e.message) : e;
      }
    });
    return print(
      json,
      { user_id: user.id, account_id: user.accountId, email: user.email, password },
      `user id:  ${user.id}\ne-mail:   ${user.email}\npassword: ${password}\n` +
        `(a one-time password, shown only now: the first sign-in chooses a new one)`,
    );
  }
  if (command === 'vacuum') {
    const done = await withStore(config, (s) => s.vacuum());
    if (!done)
      return print(json, { vacuumed: false }, 'MongoDB keeps its own files: nothing to vacuum (README "Retention").');
    const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
    return print(
      json,
      { vacuumed: true, bytes_before: done.bytesBefore, bytes_after: done.bytesAfter },
      `database and log: ${mib(done.bytesBefore)} before, ${mib(done.bytesAfter)} after; ` +
        'deleted reports now give their space back as they go',
    );
  }
  if (command === 'formatter' && sub === 'check') {
    if (!name) throw new UsageError('formatter check needs a PATH (a formatter folder or package)');
    return checkCommand(name);
  }
  throw new UsageError(`unknown command: ${positionals.join(' ')}`);
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof UsageError || (err as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    process.stderr.write(`tally: ${(err as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  process.stderr.write(`tally: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
