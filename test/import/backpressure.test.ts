/**
 * Backpressure of the import's streaming stages: a burst is offered and one side never reads; the
 * stage must stop pulling, so what it took from the source and what it holds stay near its
 * high-water marks instead of growing with the burst (STYLE.md: busboy holds the write callback until
 * the consumer reads). Each stage has a deliberately broken twin written here, the mistake it must
 * not make, and the same check must fail on it: that is what shows the check can fail.
 *
 * Stages: `tee` (the store side stalls), `peek` (the rest is never read), `ByteCounter` (its output
 * is never read), `readMultipart` (a file part is never read).
 */
import { Busboy } from '@fastify/busboy';
import { Duplex, Readable, Writable, type TransformCallback } from 'node:stream';
import t from 'tap';
import { DEFAULT_LIMITS } from '../../lib/config.js';
import { readMultipart } from '../../lib/import/receive/multipart.js';
import { ByteCounter } from '../../lib/import/receive/byte-counter.js';
import { peek, tee } from '../../lib/import/streams.js';

const KiB = 1024;
const MiB = 1024 * KiB;
const CHUNK = 64 * KiB;
/** The burst: far more than any stage may take while its consumer is stalled. */
const BURST = 16 * MiB;
/** What a stage may have pulled from its source once it has stopped: its buffers and the source's, with room. */
const PULL_BOUND = 1 * MiB;

/** A source that makes its bytes only when asked, and counts what it was asked for. */
class Burst extends Readable {
  pulled = 0;
  constructor(
    private readonly total: number,
    private readonly head = Buffer.alloc(0),
    private readonly tail = Buffer.alloc(0),
  ) {
    super({ highWaterMark: CHUNK });
  }
  override _read(): void {
    if (this.pulled === 0 && this.head.length > 0) {
      this.pulled += this.head.length;
      this.push(this.head);
      return;
    }
    const body = this.pulled - this.head.length;
    if (body >= this.total) {
      if (this.tail.length > 0 && body === this.total) {
        this.pulled += this.tail.length;
        this.push(this.tail);
      } else this.push(null);
      return;
    }
    const n = Math.min(CHUNK, this.total - body);
    this.pulled += n;
    this.push(Buffer.alloc(n, 0x61));
  }
}

/** A stage under test, started on a source: how much it holds now, and how to stop it. */
interface Running {
  /** Bytes the stage holds in its own buffers. */
  held(): number;
  /** Most it may hold while stalled: its high-water marks and a chunk in flight. */
  maxHeld: number;
  stop(): Promise<void>;
}

interface Stage {
  name: string;
  /** What the broken twin does wrong. */
  mistake: string;
  real(source: Burst): Running;
  broken(source: Burst): Running;
  /** The source for the stage (a multipart body for the multipart reader). */
  source?: () => Burst;
}

async function turns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** Turns of the event loop until the source has not been pulled for a while (or the burst is all out). */
async function settle(source: Burst): Promise<void> {
  let still = 0;
  let last = -1;
  for (let turn = 0; turn < 100_000 && still < 50; turn++) {
    await new Promise((resolve) => setImmediate(resolve));
    if (source.pulled === last) still++;
    else {
      still = 0;
      last = source.pulled;
    }
  }
}

interface Measured {
  pulled: number;
  held: number;
  maxHeld: number;
}

/** The check: the stage stopped pulling, and holds no more than its high-water marks. */
function stoppedPulling(m: Measured): boolean {
  return m.pulled <= PULL_BOUND && m.held <= m.maxHeld;
}

async function measure(stage: Stage, variant: 'real' | 'broken'): Promise<Measured> {
  const source = stage.source?.() ?? new Burst(BURST);
  const running = stage[variant](source);
  await settle(source);
  const m = { pulled: source.pulled, held: running.held(), maxHeld: running.maxHeld };
  source.destroy();
  // A stage broken in some other way may never settle once stopped: the measure stands regardless.
  await Promise.race([running.stop(), turns(1000)]);
  return m;
}

/** A store side that takes one write and never calls back: a disk that stopped. */
function stalledWritable(): { w: Writable; maxHeld: number } {
  const w = new Writable({ highWaterMark: 4 * CHUNK, write: () => undefined });
  w.on('error', () => undefined);
  return { w, maxHeld: w.writableHighWaterMark + CHUNK };
}

/** Reads a generator to its end or failure in the background; `done` never rejects. */
function drain(g: AsyncIterable<Buffer>): Promise<void> {
  return (async () => {
    for await (const _ of g);
  })().catch(() => undefined);
}

/** The broken tee: writes every chunk and never waits for the writable to drain. */
async function* teeIgnoringWriteResult(source: AsyncIterable<Buffer>, w: Writable): AsyncGenerator<Buffer> {
  for await (const chunk of source) {
    w.write(chunk);
    yield chunk;
  }
  w.end();
}

/** The broken peek: reads the whole source to find its head. */
async function peekReadingAll(source: AsyncIterable<Buffer>, bytes: number) {
  const chunks: Buffer[] = [];
  for await (const chunk of source) chunks.push(chunk);
  const all = Buffer.concat(chunks);
  return { head: all.subarray(0, bytes), held: all.length };
}

/** The broken counter: passes each chunk on at once, whether or not its reader keeps up. */
class CounterIgnoringPush extends Duplex {
  bytes = 0;
  override _write(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    this.push(chunk);
    done();
  }
  override _read(): void {}
}

const BOUNDARY = 'tallybackpressure';
const CONTENT_TYPE = `multipart/form-data; boundary=${BOUNDARY}`;
const multipartBody = (): Burst =>
  new Burst(
    BURST,
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file[]"; filename="big.xml"\r\n` +
        'Content-Type: application/xml\r\n\r\n',
    ),
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  );

const stages: Stage[] = [
  {
    name: 'tee: the store side stops taking writes',
    mistake: "ignores write()'s false",
    real(source) {
      const { w, maxHeld } = stalledWritable();
      const reading = drain(tee(source, w));
      return { held: () => w.writableLength, maxHeld, stop: () => (w.destroy(), reading) };
    },
    broken(source) {
      const { w, maxHeld } = stalledWritable();
      const reading = drain(teeIgnoringWriteResult(source, w));
      return { held: () => w.writableLength, maxHeld, stop: () => (w.destroy(), reading) };
    },
  },
  {
    name: 'tee: the parse side takes one chunk and stops',
    mistake: 'reads ahead of the parse side into the store side',
    real(source) {
      const w = new Writable({ write: (_c, _e, cb) => cb() });
      // Stopping early destroys the store side with an error, as an import that fails does.
      w.on('error', () => undefined);
      const g = tee(source, w);
      const first = g.next();
      return {
        held: () => 0,
        maxHeld: 0,
        stop: async () => {
          await first;
          await g.return(undefined);
        },
      };
    },
    broken(source) {
      const w = new Writable({ write: (_c, _e, cb) => cb() });
      // Store first, parse after: the parse side's pace no longer limits what is read.
      const storing = (async () => {
        for await (const chunk of source) if (!w.write(chunk)) await new Promise((r) => w.once('drain', r));
      })().catch(() => undefined);
      return { held: () => 0, maxHeld: 0, stop: () => storing };
    },
  },
  {
    name: 'peek: the head is taken, the rest is never read',
    mistake: 'reads the whole source to find the head',
    real(source) {
      const peeked = peek(source, CHUNK);
      return {
        held: () => 0,
        maxHeld: 0,
        stop: async () => {
          const p = await peeked;
          await p.all.return(undefined);
        },
      };
    },
    broken(source) {
      let held = 0;
      const peeked = peekReadingAll(source, CHUNK).then((p) => (held = p.held));
      return { held: () => held, maxHeld: CHUNK, stop: async () => void (await peeked) };
    },
  },
  {
    name: 'ByteCounter: its output is never read',
    mistake: "ignores push()'s false",
    real(source) {
      const counter = new ByteCounter(BURST * 2);
      source.pipe(counter);
      return {
        held: () => counter.readableLength + counter.writableLength,
        maxHeld: counter.readableHighWaterMark + counter.writableHighWaterMark + 2 * CHUNK,
        stop: async () => void counter.destroy(),
      };
    },
    broken(source) {
      const counter = new CounterIgnoringPush();
      source.pipe(counter);
      return {
        held: () => counter.readableLength + counter.writableLength,
        maxHeld: counter.readableHighWaterMark + counter.writableHighWaterMark + 2 * CHUNK,
        stop: async () => void counter.destroy(),
      };
    },
  },
  {
    name: 'readMultipart: a file part is never read',
    mistake: "writes to busboy ignoring write()'s false",
    source: multipartBody,
    real(body) {
      let part: Readable | null = null;
      const reading = readMultipart(body, CONTENT_TYPE, DEFAULT_LIMITS, {
        field: () => undefined,
        file: (_name, _fileName, stream) =>
          new Promise<void>((resolve) => {
            part = stream;
            stream.on('error', () => undefined);
            stream.on('close', resolve);
          }),
      }).catch(() => undefined);
      return {
        held: () => part?.readableLength ?? 0,
        maxHeld: 4 * CHUNK,
        stop: async () => {
          body.destroy(new Error('stopped by the test'));
          await reading;
        },
      };
    },
    broken(body) {
      const parser = Busboy({ headers: { 'content-type': CONTENT_TYPE } });
      parser.on('file', (_name, stream) => stream.on('error', () => undefined));
      parser.on('error', () => undefined);
      body.on('data', (chunk: Buffer) => parser.write(chunk));
      return {
        held: () => parser.writableLength,
        maxHeld: 4 * CHUNK,
        stop: async () => void parser.destroy(),
      };
    },
  },
];

for (const stage of stages) {
  t.test(stage.name, async (t) => {
    const real = await measure(stage, 'real');
    t.ok(stoppedPulling(real), `stops pulling: ${JSON.stringify(real)}`);
    const broken = await measure(stage, 'broken');
    t.notOk(stoppedPulling(broken), `the twin that ${stage.mistake} fails the same check: ${JSON.stringify(broken)}`);
    t.ok(broken.pulled > BURST / 2, 'the twin pulled the burst');
  });
}
