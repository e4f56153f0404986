/**
 * Taking a file parsed on a parse thread, in its turn: the thread's ids are the file's own (1, 2,
 * …), so they move past the ids the report used so far; containers the thread sends back go to the
 * batcher, or, where the thread writes them itself, only their count comes back (progress, and a
 * `tally.store.batch` span per report).
 */
import type { Store } from '../../store/store.js';
import { recordSpan } from '../../telemetry/spans.js';
import { MAX_REFS } from '../assemble/assembler.js';
import type { FileOutcome, ReportAssembly } from '../assemble/report-assembly.js';
import type { ParseJob } from './job.js';

export async function collectFromThread(
  job: ParseJob,
  feeding: Promise<void>,
  index: number,
  assembly: ReportAssembly,
  o: { store: Pick<Store, 'history'>; reportId: string },
): Promise<FileOutcome> {
  const base = assembly.seq;
  job.commit(base, index);
  let since = Date.now();
  try {
    for await (const out of job.output()) {
      if ('history' in out) {
        await o.store.history.addFileHistory(o.reportId, out.history, base);
        continue;
      }
      if ('wrote' in out) {
        recordSpan('tally.store.batch', { 'tally.containers': out.wrote, 'tally.writer': 'parse-worker' }, since);
        since = Date.now();
        assembly.counted(out.wrote);
        continue;
      }
      for (const c of out.containers) {
        c.seq += base;
        if (c.parentSeq !== null) c.parentSeq += base;
        c.fileIndex = index;
        assembly.batcher.push(c);
      }
      assembly.counted(out.containers.length);
      const wait = assembly.batcher.ready();
      if (wait) await wait;
    }
  } catch (e) {
    job.abort(e instanceof Error ? e : new Error(String(e)));
    throw e;
  }
  // Done means the thread read the end, so the feeder has finished too.
  await feeding;
  const r = job.result!;
  assembly.seq = base + r.lastId;
  for (const ref of r.refs)
    if (assembly.refs.length < MAX_REFS) assembly.refs.push({ seq: ref.seq + base, ref: ref.ref });
  return {
    totals: r.totals,
    earliest: r.earliest,
    duplicates: r.duplicates,
    duplicateCount: r.duplicateCount,
    truncated: r.truncated,
    producer: r.producer,
    noTests: r.noTests,
  };
}
