/**
 * The end of a run that failed, wherever it failed: its messages are decided (a real bug is logged
 * and answered as internal_error), container writes still in flight are waited out, and the store
 * cleans up in its own order (the report first, so no half report is ever shown, then the blobs)
 * and then ends the record.
 */
import { applyFlags, ImportFault, message, statusOf } from '../messages.js';
import { isStorageFull } from '../store/faults.js';
import type { Message } from '../store/types.js';
import { tellEnded } from './ended.js';
import { answerBody } from './finalize/answer.js';
import { ErrorOutcome, type ImportAnswer, type Run } from './run-state.js';

export async function fail(run: Run, e: unknown): Promise<ImportAnswer> {
  const { store } = run.deps;
  const messages = await failureMessages(e, run);
  // On a full disk the clean-up below needs room itself (SQLite appends even to delete).
  if (isStorageFull(e)) await store.releaseReserve().catch(() => false);
  // A container write still in flight would land after the purge: let it finish first.
  await run.uploads?.abandon();
  const failedSteps = await store.imports.fail(
    run.record.id,
    { messages, params: run.params.received, tags: run.params.tags },
    run.report?.id ?? null,
  );
  if (failedSteps > 0)
    run.deps.log('import.cleanup_incomplete', { import_id: run.record.id, failed_steps: failedSteps });
  // With the store gone nothing can be queued, and trying would only hold the answer back longer.
  if (!messages.some((m) => m.code === 'store_unavailable')) await tellEnded(run, 'failed', null);
  return {
    status: statusOf(messages),
    body: answerBody({
      importId: run.record.id,
      reportNumber: null,
      profileNumber: run.profileNumber,
      status: 'failed',
      messages,
      report: null,
      baseUrl: run.baseUrl,
    }),
  };
}

/** The messages of a failed run; real bugs are logged and answered as internal_error. */
async function failureMessages(e: unknown, run: Run): Promise<Message[]> {
  if (e instanceof ErrorOutcome) return e.messages;
  const before = [...run.early, ...safe(() => run.params.messages()), ...(run.uploads?.messages ?? [])];
  let fault: Message;
  // Checked first: a stage may have wrapped it (the batcher reports any failed write as store_unavailable).
  if (isStorageFull(e)) {
    fault = message('storage_full');
    run.deps.log('import.storage_full', {
      import_id: run.record.id,
      error: e instanceof Error ? e.message : String(e),
    });
  } else if (e instanceof ImportFault) fault = e.msg;
  else {
    const storeUp = await run.deps.store.ping().then(
      () => true,
      () => false,
    );
    fault = storeUp ? message('internal_error') : message('store_unavailable');
    run.deps.log(storeUp ? 'import.internal_error' : 'import.store_unavailable', {
      error: e instanceof Error ? (e.stack ?? e.message) : String(e),
    });
  }
  // Flags still apply to warnings and notices of a failed import (SPEC 7.2 "way to silence").
  return applyFlags([...before, fault], new Set(safe(() => [...run.params.flags])));
}

function safe<T>(f: () => T[]): T[] {
  try {
    return f();
  } catch {
    return [];
  }
}
