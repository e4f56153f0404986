/**
 * Demo results for the web interface: JUnit runs of a small shop's test suite with a test that
 * flips (flaky), one that started failing (with a screenshot), skips, and durations that drift; and
 * a real PNG screenshot. Used by `npm run screenshots` and the browser tests.
 */
import { deflateSync } from 'node:zlib';

export interface DemoCase {
  suite: string;
  name: string;
  status: 'passed' | 'failed' | 'skipped';
  seconds: number;
  failure?: { message: string; type: string; stack: string };
  stdout?: string;
}

const SUITES: Record<string, string[]> = {
  'shop.checkout.CartTest': [
    'adds an item to the cart',
    'removes an item',
    'applies a coupon',
    'computes the tax',
    'keeps the cart after sign-out',
  ],
  'shop.auth.LoginTest': [
    'logs in with a password',
    'logs out',
    'rejects a wrong password',
    'locks the account after five tries',
  ],
  'shop.search.SearchTest': [
    'finds a product by name',
    'suggests while typing',
    'filters by price',
    'sorts by rating',
    'pages the results',
  ],
};

/** Run `i` of the demo (0 = oldest). `failLogin` makes the login test fail with a screenshot. */
export function demoRun(i: number, o: { failLogin?: boolean } = {}): DemoCase[] {
  const cases: DemoCase[] = [];
  for (const [suite, names] of Object.entries(SUITES)) {
    names.forEach((name, k) => {
      let status: DemoCase['status'] = 'passed';
      let failure: DemoCase['failure'];
      let stdout: string | undefined;
      if (name === 'applies a coupon' && i % 2 === 1) {
        status = 'failed';
        failure = {
          message: 'expected total 90.00 but was 100.00',
          type: 'java.lang.AssertionError',
          stack:
            'java.lang.AssertionError: expected total 90.00 but was 100.00\n' +
            '\tat shop.checkout.CartTest.appliesACoupon(CartTest.java:57)',
        };
      }
      if (name === 'logs in with a password' && o.failLogin) {
        status = 'failed';
        failure = {
          message: 'Timed out after 5000 ms waiting for the account menu',
          type: 'org.openqa.selenium.TimeoutException',
          stack:
            'org.openqa.selenium.TimeoutException: Timed out after 5000 ms waiting for the account menu\n' +
            '\tat shop.auth.LoginTest.logsIn(LoginTest.java:31)',
        };
        stdout = 'opening /login\ntyping the password\n[[ATTACHMENT|screenshots/login-failed.png]]';
      }
      if (name === 'locks the account after five tries') status = 'skipped';
      const seconds =
        Math.round(
          (0.05 + k * 0.11 + (name === 'suggests while typing' ? i * 0.07 : 0) + ((i * 7 + k * 3) % 5) * 0.01) * 1000,
        ) / 1000;
      cases.push({ suite, name, status, seconds, ...(failure ? { failure } : {}), ...(stdout ? { stdout } : {}) });
    });
  }
  return cases;
}

const escape = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function demoJunit(cases: DemoCase[], timestamp: string): string {
  const bySuite = new Map<string, DemoCase[]>();
  for (const c of cases) bySuite.set(c.suite, [...(bySuite.get(c.suite) ?? []), c]);
  const suites = [...bySuite].map(([suite, list]) => {
    const failures = list.filter((c) => c.status === 'failed').length;
    const skipped = list.filter((c) => c.status === 'skipped').length;
    const time = list.reduce((s, c) => s + c.seconds, 0).toFixed(3);
    const body = list
      .map((c) => {
        const inner =
          (c.failure
            ? `<failure message="${escape(c.failure.message)}" ` +
              `type="${escape(c.failure.type)}">${escape(c.failure.stack)}</failure>`
            : '') +
          (c.status === 'skipped' ? '<skipped/>' : '') +
          (c.stdout ? `<system-out>${escape(c.stdout)}</system-out>` : '');
        return (
          `    <testcase classname="${escape(suite)}" name="${escape(c.name)}" ` +
          `time="${c.seconds}">${inner}</testcase>`
        );
      })
      .join('\n');
    return (
      `  <testsuite name="${escape(suite)}" tests="${list.length}" failures="${failures}" errors="0" ` +
      `skipped="${skipped}" time="${time}" timestamp="${timestamp}">\n${body}\n  </testsuite>`
    );
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>\n${suites.join('\n')}\n</testsuites>\n`;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A real PNG: a mock browser window with a red error banner, 320 × 200, RGB. */
export function demoScreenshot(width = 320, height = 200): Buffer {
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x++) {
      let rgb = [246, 247, 249];
      if (y < 24) rgb = [29, 35, 48];
      else if (y > 70 && y < 100 && x > 30 && x < width - 30) rgb = [214, 69, 69];
      else if (y > 120 && y < 134 && x > 30 && x < 200) rgb = [200, 206, 216];
      else if (y > 145 && y < 159 && x > 30 && x < 160) rgb = [200, 206, 216];
      row.set(rgb, 1 + x * 3);
    }
    rows.push(row);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Posts run `i` to a profile through the import API, with the screenshot when it fails. */
export async function importDemoRun(o: {
  url: string;
  apiKey: string;
  profileId: string;
  i: number;
  failLogin?: boolean;
  tags?: string[];
  timestamp: string;
}): Promise<{ status: number; body: { report_id?: number; status?: string } }> {
  const form = new FormData();
  for (const tag of o.tags ?? []) form.append('tag[]', tag);
  form.append(
    'file[]',
    new Blob([demoJunit(demoRun(o.i, { failLogin: o.failLogin ?? false }), o.timestamp)], { type: 'application/xml' }),
    `TEST-shop-${o.i}.xml`,
  );
  if (o.failLogin)
    form.append(
      'attachment[]',
      new Blob([new Uint8Array(demoScreenshot())], { type: 'image/png' }),
      'login-failed.png',
    );
  const res = await fetch(`${o.url}/api/v2/profile/${o.profileId}/import/junit`, {
    method: 'POST',
    headers: { 'x-api-key': o.apiKey },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as { report_id?: number; status?: string } };
}
