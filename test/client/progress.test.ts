/**
 * The upload's progress lines: in a CI log one line per further 10% at most once a second, a line
 * every 30 s while nothing moves, always 100% at the end, and nothing once stopped; on a terminal
 * one line rewritten in place and ended by a newline. The clock is a plain counter the test moves.
 */
import t from 'tap';
import { progress } from '../../lib/client/progress.js';

function output(isTTY: boolean): { text: string[]; write(s: string): void; isTTY: boolean } {
  const text: string[] = [];
  return { text, write: (s: string) => void text.push(s), isTTY };
}

t.test('a CI log: sane rate, 100% at the end, nothing after', async (t) => {
  const out = output(false);
  let now = 0;
  const MB = 1024 * 1024;
  const bar = progress({ out, total: 100 * MB, now: () => now });
  // 1,000 chunks of 100 KiB over 20 s: a line per 10%, none closer than a second.
  for (let i = 0; i < 1000; i++) {
    now += 20;
    bar.add(100 * 1024);
  }
  const lines = out.text.join('').split('\n').filter(Boolean);
  t.ok(lines.length >= 8 && lines.length <= 10, `${lines.length} lines before the end`);
  t.notOk(
    lines.some((l) => l.includes('(100%)')),
    'the files were read, but 100% waits for the body to have gone',
  );
  t.ok(
    out.text.every((s) => !s.includes('\r')),
    'no carriage return',
  );
  bar.complete();
  t.equal(out.text.at(-1), 'uploading: 100.0 MB of 100.0 MB (100%)\n');
  bar.add(MB);
  bar.stop();
  bar.complete();
  t.equal(out.text.at(-1), 'uploading: 100.0 MB of 100.0 MB (100%)\n', 'nothing after the end');

  // Within a second of the start, no line at all.
  const fast = output(false);
  const quick = progress({ out: fast, total: 100, now: () => 0 });
  for (let i = 0; i < 99; i++) quick.add(1);
  t.same(fast.text, [], 'an upload shorter than a second prints no line before its end');
  quick.complete();
  t.same(fast.text, ['uploading: 0.0 MB of 0.0 MB (100%)\n']);
});

t.test('a stalled upload in a CI log still shows it is alive', async (t) => {
  const out = output(false);
  const bar = progress({ out, total: 1000, heartbeatMs: 50 });
  bar.add(10);
  await new Promise((r) => setTimeout(r, 300));
  const beats = out.text.length;
  t.ok(beats >= 2, `${beats} lines while nothing moved`);
  t.match(out.text[0], /^uploading: 0\.0 MB of 0\.0 MB \(1%\)\n$/);
  bar.stop();
  await new Promise((r) => setTimeout(r, 200));
  t.equal(out.text.length, beats, 'stopped: no more lines');
});

t.test('a terminal: one line rewritten in place, ended when the upload ends', async (t) => {
  const out = output(true);
  let now = 0;
  const bar = progress({ out, total: 1000, now: () => now });
  for (let i = 0; i < 50; i++) {
    now += 50;
    bar.add(10);
  }
  t.ok(out.text.length >= 20 && out.text.length <= 26, `${out.text.length} rewrites, at most ten a second`);
  t.ok(
    out.text.every((s) => s.startsWith('\r  uploading: ')),
    'rewritten in place',
  );
  bar.stop();
  t.equal(out.text.at(-1), '\n', 'stopped early: the line is ended, so what follows starts on its own line');
  bar.complete();
  t.equal(out.text.at(-1), '\n', 'and nothing more');

  const done = output(true);
  const finished = progress({ out: done, total: 10 });
  finished.add(10);
  finished.complete();
  t.same(done.text, ['\r  uploading: 0.0 MB of 0.0 MB (100%)   ', '\n']);
});
