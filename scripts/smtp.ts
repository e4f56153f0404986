/**
 * A real SMTP server for the notification tests: aiosmtpd from PyPI, installed into a virtualenv on
 * first use and cached under ~/.cache/tally/aiosmtpd-<version>/ (one install at a time, see
 * cache-lock.ts), started on 127.0.0.1 and a free port with a generated handler that writes each
 * message it accepts to a folder as one JSON file (envelope, the message as sent, whether it came
 * over TLS and who logged in), which the tests read back. Plain, STARTTLS or TLS from the first
 * byte (a certificate for 127.0.0.1 made with openssl per start), with or without a login; a
 * recipient whose address starts with `reject` is refused with 550, as a server refuses a mailbox.
 */
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { buildOnce, toolCache } from './cache-lock.js';
import { freePort } from './mongo-wire.js';

const run = promisify(execFile);
export const AIOSMTPD_VERSION = '1.4.6';

export interface ReceivedMail {
  mail_from: string;
  rcpt_tos: string[];
  /** The message as the client sent it: headers, a blank line, the body. */
  data: string;
  /** Whether it came over TLS (STARTTLS or from the first byte). */
  tls: boolean;
  /** The user that logged in, or null. */
  login: string | null;
}

export interface SmtpServer {
  /** `smtp://…` or `smtps://…`, with the login when the server asks for one: what TALLY_SMTP_URL takes. */
  url: string;
  port: number;
  /** The certificate the server presents (PEM), for the client to trust; null for a plain server. */
  ca: string | null;
  /** Every message accepted so far, oldest first. */
  messages(): Promise<ReceivedMail[]>;
  stop(): Promise<void>;
}

export type SmtpMode = 'plain' | 'starttls' | 'smtps';

/** The virtualenv's python: the cache, else made with python3 and pip (a marker written last). */
export async function aiosmtpdPython(log: (line: string) => void = () => undefined): Promise<string> {
  const venv = toolCache(`aiosmtpd-${AIOSMTPD_VERSION}`);
  const python = path.join(venv, 'bin', 'python');
  const marker = path.join(venv, 'tally-installed');
  return buildOnce(venv, {
    ready: () => (existsSync(marker) ? python : null),
    async build() {
      await run('python3', ['-m', 'venv', '--help']).catch(() => {
        throw new Error('python3 with its venv module is not installed, so aiosmtpd cannot be installed');
      });
      log(`installing aiosmtpd ${AIOSMTPD_VERSION} from PyPI into ${venv} (first run only) …`);
      await rm(venv, { recursive: true, force: true });
      const step = async (cmd: string, args: string[]) =>
        run(cmd, args, { maxBuffer: 16 * 1024 * 1024 }).catch((e: Error & { stderr?: string }) => {
          throw new Error(
            `installing aiosmtpd failed at \`${cmd} ${args.join(' ')}\`: ${(e.stderr || e.message).slice(-2000)}`,
          );
        });
      await step('python3', ['-m', 'venv', venv]);
      await step(path.join(venv, 'bin', 'pip'), [
        'install',
        '--quiet',
        '--disable-pip-version-check',
        `aiosmtpd==${AIOSMTPD_VERSION}`,
      ]);
      await writeFile(marker, `aiosmtpd==${AIOSMTPD_VERSION}\n`);
      return python;
    },
    log,
  });
}

/** The server: aiosmtpd's Controller with a handler that keeps each message as a JSON file. */
const SERVER_PY = `# Generated for Tally's tests.
import json, os, signal, ssl, sys, threading
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

port, folder, mode, user, password, cert, key = sys.argv[1:8]

class Keep:
    def __init__(self):
        self.n = 0
        self.lock = threading.Lock()

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address.lower().startswith('reject'):
            return '550 5.1.1 No such mailbox here'
        envelope.rcpt_tos.append(address)
        return '250 OK'

    async def handle_DATA(self, server, session, envelope):
        with self.lock:
            self.n += 1
            name = os.path.join(folder, '%06d' % self.n)
        login = session.auth_data.login.decode() if isinstance(session.auth_data, LoginPassword) else None
        with open(name + '.tmp', 'w') as f:
            json.dump({
                'mail_from': envelope.mail_from,
                'rcpt_tos': envelope.rcpt_tos,
                'data': envelope.original_content.decode('utf-8', 'replace'),
                'tls': session.ssl is not None or mode == 'smtps',
                'login': login,
            }, f)
        os.rename(name + '.tmp', name + '.json')
        return '250 2.0.0 Message accepted'

def authenticate(server, session, envelope, mechanism, auth_data):
    ok = isinstance(auth_data, LoginPassword) and auth_data.login.decode() == user \\
        and auth_data.password.decode() == password
    return AuthResult(success=ok, handled=False, auth_data=auth_data)

options = {}
if cert != '-':
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    if mode == 'smtps':
        options['ssl_context'] = context
    else:
        options['tls_context'] = context
        options['require_starttls'] = True
if user != '-':
    options['authenticator'] = authenticate
    options['auth_required'] = True
    # Over implicit TLS aiosmtpd cannot tell the connection is secure: it would never offer AUTH.
    options['auth_require_tls'] = mode == 'starttls'
controller = Controller(Keep(), hostname='127.0.0.1', port=int(port), **options)
controller.start()
print('ready', flush=True)
stop = threading.Event()
signal.signal(signal.SIGTERM, lambda *_: stop.set())
stop.wait()
controller.stop()
`;

/** A certificate for 127.0.0.1 and localhost, made for one start. */
async function makeCertificate(dir: string): Promise<{ cert: string; key: string }> {
  const cert = path.join(dir, 'cert.pem');
  const key = path.join(dir, 'key.pem');
  await run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    key,
    '-out',
    cert,
    '-days',
    '2',
    '-subj',
    '/CN=localhost',
    '-addext',
    'subjectAltName=IP:127.0.0.1,DNS:localhost',
  ]).catch((e: Error & { stderr?: string }) => {
    throw new Error(`openssl could not make the SMTP server's certificate: ${(e.stderr || e.message).slice(-1000)}`);
  });
  return { cert, key };
}

export async function startSmtp(
  o: { mode?: SmtpMode; login?: boolean; log?: (line: string) => void } = {},
): Promise<SmtpServer> {
  const mode = o.mode ?? 'plain';
  const python = await aiosmtpdPython(o.log);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tally-smtp-'));
  const folder = path.join(dir, 'mail');
  await mkdir(folder);
  const port = await freePort();
  const user = o.login ? 'tally' : null;
  const password = o.login ? `pw-${randomBytes(9).toString('base64url')}` : null;
  const tls = mode === 'plain' ? null : await makeCertificate(dir);
  await writeFile(path.join(dir, 'server.py'), SERVER_PY);
  let output = '';
  const child: ChildProcess = spawn(
    python,
    [
      path.join(dir, 'server.py'),
      String(port),
      folder,
      mode,
      user ?? '-',
      password ?? '-',
      tls?.cert ?? '-',
      tls?.key ?? '-',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`aiosmtpd did not start within 30 s: ${output.slice(-2000)}`)),
        30_000,
      );
      child.stdout!.on('data', (c: Buffer) => {
        output += c.toString();
        if (output.includes('ready')) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.stderr!.on('data', (c: Buffer) => (output = (output + c.toString()).slice(-20_000)));
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`aiosmtpd exited (${code}): ${output.slice(-2000)}`));
      });
    });
  } catch (e) {
    await stop();
    throw e;
  }
  const scheme = mode === 'smtps' ? 'smtps' : 'smtp';
  const login = user ? `${user}:${encodeURIComponent(password!)}@` : '';
  return {
    url: `${scheme}://${login}127.0.0.1:${port}`,
    port,
    ca: tls ? await readFile(tls.cert, 'utf8') : null,
    async messages() {
      const names = (await readdir(folder)).filter((n) => n.endsWith('.json')).sort();
      return Promise.all(
        names.map(async (n) => JSON.parse(await readFile(path.join(folder, n), 'utf8')) as ReceivedMail),
      );
    },
    stop,
  };
}
