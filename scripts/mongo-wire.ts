/**
 * A MongoDB-wire server for tests: `MONGODB_URL` when set (a real MongoDB), else FerretDB v1
 * (SQLite handler, a temp dir, 127.0.0.1, telemetry off), built from the Go module proxy on first
 * use and cached. Nothing here is a fake: the driver talks to a real server over a socket.
 */
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const FERRETDB_VERSION = 'v1.24.2';
const MODULE = 'github.com/FerretDB/FerretDB';

export interface MongoWire {
  url: string;
  /** What serves it: a user's MongoDB, or a FerretDB this process started. */
  kind: 'external' | 'ferretdb';
  stop(): Promise<void>;
}

export interface FerretDB extends MongoWire {
  kind: 'ferretdb';
  port: number;
  dir: string;
  /** Kills the server at once (SIGKILL), as a crash would. */
  kill(): Promise<void>;
  /** Starts it again on the same port and data. */
  restart(): Promise<void>;
}

function cacheDir(): string {
  return path.join(
    process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'),
    'tally',
    `ferretdb-${FERRETDB_VERSION}`,
  );
}

/**
 * The FerretDB binary: TALLY_FERRETDB_BIN, else the cache, else built with Go. `go install
 * …@v1.24.2` fails on the module proxy (its deprecation lookup is refused), and the module zip lacks
 * the generated version file, so the build goes through a small module with a `replace`.
 */
export async function ferretdbBinary(log: (line: string) => void = () => undefined): Promise<string> {
  if (process.env.TALLY_FERRETDB_BIN) return process.env.TALLY_FERRETDB_BIN;
  const bin = path.join(cacheDir(), 'ferretdb');
  if (existsSync(bin)) return bin;
  await run('go', ['version']).catch(() => {
    throw new Error('Go is not installed, so FerretDB cannot be built; set MONGODB_URL to a MongoDB server instead');
  });
  log(`building FerretDB ${FERRETDB_VERSION} with Go (first run only, about a minute) …`);
  const work = await mkdtemp(path.join(os.tmpdir(), 'tally-ferretdb-build-'));
  const go = (...args: string[]) =>
    run('go', args, { cwd: work, env: { ...process.env, GOFLAGS: '-mod=mod' }, maxBuffer: 64 * 1024 * 1024 });
  try {
    await go('mod', 'init', 'tally.local/ferretdb-build');
    await writeFile(
      path.join(work, 'tools.go'),
      `//go:build tools\n\npackage tools\n\nimport _ "${MODULE}/cmd/ferretdb"\n`,
    );
    await go('get', `${MODULE}@${FERRETDB_VERSION}`);
    await go('get', `${MODULE}/cmd/ferretdb@${FERRETDB_VERSION}`);
    const { stdout } = await go('mod', 'download', '-json', `${MODULE}@${FERRETDB_VERSION}`);
    const source = (JSON.parse(stdout) as { Dir: string }).Dir;
    const copy = path.join(work, 'src');
    await cp(source, copy, { recursive: true });
    await run('chmod', ['-R', 'u+w', copy]);
    await writeFile(path.join(copy, 'build/version/version.txt'), `${FERRETDB_VERSION}\n`);
    await go('mod', 'edit', `-replace=${MODULE}=./src`);
    await mkdir(cacheDir(), { recursive: true });
    await go('build', '-o', bin, `${MODULE}/cmd/ferretdb`);
    await chmod(bin, 0o755);
    log(`FerretDB built: ${bin}`);
    return bin;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

async function waitForPort(port: number, child: ChildProcess, output: () => string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) throw new Error(`FerretDB exited (${child.exitCode}): ${output().slice(-2000)}`);
    const open = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => {
        s.destroy();
        resolve(true);
      });
      s.on('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`FerretDB did not listen on ${port}: ${output().slice(-2000)}`);
}

export async function startFerretDB(
  o: {
    bin?: string;
    port?: number;
    dir?: string;
    onExit?: (code: number | null, signal: string | null, output: string) => void;
  } = {},
): Promise<FerretDB> {
  const bin = o.bin ?? (await ferretdbBinary());
  const port = o.port ?? (await freePort());
  // In memory where the machine has a tmpfs: the suite's data is thrown away, and its writes cost less.
  const dir = o.dir ?? (await mkdtemp(path.join(existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir(), 'tally-ferretdb-')));
  let child: ChildProcess;
  let output = '';
  const launch = async (): Promise<void> => {
    output = '';
    child = spawn(
      bin,
      [
        '--handler=sqlite',
        `--sqlite-url=file:${dir}/`,
        `--state-dir=${dir}`,
        `--listen-addr=127.0.0.1:${port}`,
        '--telemetry=disable',
        '--debug-addr=-',
        '--log-level=warn',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    const self = child;
    self.once('exit', (code, signal) => {
      if (!stopping) o.onExit?.(code, signal, output.slice(-4000));
    });
    await waitForPort(port, child, () => output);
  };
  let stopping = false;
  const halt = async (signal: NodeJS.Signals): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill(signal);
    await exited;
  };
  await launch();
  return {
    url: `mongodb://127.0.0.1:${port}/`,
    kind: 'ferretdb',
    port,
    dir,
    kill: () => halt('SIGKILL'),
    restart: launch,
    async stop() {
      stopping = true;
      await halt('SIGTERM');
      if (!o.dir) await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The server the test suite uses, or the reason there is none. */
export async function mongoWireForTests(log: (line: string) => void): Promise<MongoWire | { unavailable: string }> {
  if (process.env.MONGODB_URL) return { url: process.env.MONGODB_URL, kind: 'external', stop: async () => undefined };
  try {
    // A server that dies under the suite fails many tests at once; say why, once, where it happened.
    return await startFerretDB({
      bin: await ferretdbBinary(log),
      onExit: (code, signal, output) =>
        log(`FerretDB exited (code ${code}, signal ${signal}) during the run; its last output:\n${output}`),
    });
  } catch (e) {
    return { unavailable: (e as Error).message };
  }
}
