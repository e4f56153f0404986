/**
 * Upload progress as `tally upload` shows it, counted in bytes of the files read into the request
 * (a zip made on the fly is smaller than its files, so bytes on the wire would stop short of 100%).
 * On a terminal: one line rewritten in place, at most ten times a second. In a CI log (not a TTY):
 * plain lines, never a carriage return, one per further 10% but at most one a second, and one every
 * 30 s while nothing else moves, so a stalled upload still shows it is alive. Once the whole body
 * has gone the last line says 100%; once stopped (an answer or an error came first) it prints
 * nothing more, so nothing follows the command's final line.
 */

export interface ProgressOut {
  write(text: string): unknown;
  isTTY?: boolean;
}

export interface Progress {
  /** `n` more bytes of the files went into the request. */
  add(n: number): void;
  /** The whole body has gone: the 100% line. */
  complete(): void;
  /** The upload ended before its body had gone: end the terminal's line, print nothing more. */
  stop(): void;
  /** What has gone so far: "12.0 of 64.0 MB (18%)". */
  summary(): string;
}

export interface ProgressOptions {
  out: ProgressOut;
  /** Bytes of every file the request will carry. */
  total: number;
  now?: () => number;
  /** How long a CI log may go without a line while the upload runs. */
  heartbeatMs?: number;
}

const TTY_EVERY_MS = 100;
const LOG_STEP_PERCENT = 10;
const LOG_MIN_GAP_MS = 1000;

function mb(n: number): string {
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

export function progress(o: ProgressOptions): Progress {
  const now = o.now ?? Date.now;
  const tty = o.out.isTTY === true;
  let done = 0;
  let over = false;
  let lineOpen = false;
  let lastLine = now();
  let lastPercent = 0;
  const percent = (): number => (o.total > 0 ? Math.floor((Math.min(done, o.total) / o.total) * 100) : 100);
  const summary = (): string => `${mb(Math.min(done, o.total))} of ${mb(o.total)} (${percent()}%)`;
  const print = (): void => {
    lastLine = now();
    if (tty) {
      o.out.write(`\r  uploading: ${summary()}   `);
      lineOpen = true;
    } else {
      o.out.write(`uploading: ${summary()}\n`);
      lastPercent = percent() - (percent() % LOG_STEP_PERCENT);
    }
  };
  const heartbeat = tty
    ? null
    : setInterval(
        () => {
          if (!over && now() - lastLine >= (o.heartbeatMs ?? 30_000)) print();
        },
        Math.min(o.heartbeatMs ?? 30_000, 5_000),
      );
  heartbeat?.unref();
  const end = (): void => {
    over = true;
    if (heartbeat) clearInterval(heartbeat);
  };
  return {
    add(n) {
      if (over) return;
      done += n;
      const p = percent();
      // 100% belongs to complete(): the bytes were read, but have not all gone yet.
      if (p >= 100) return;
      if (
        tty
          ? now() - lastLine >= TTY_EVERY_MS
          : p >= lastPercent + LOG_STEP_PERCENT && now() - lastLine >= LOG_MIN_GAP_MS
      )
        print();
    },
    complete() {
      if (over) return;
      done = o.total;
      print();
      if (tty) o.out.write('\n');
      end();
    },
    stop() {
      if (over) return;
      if (lineOpen) o.out.write('\n');
      end();
    },
    summary,
  };
}
