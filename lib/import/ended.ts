/**
 * Telling an import's end to `ImportDeps.onEnded` (notifications): one call from complete.ts and one
 * from fail.ts. What listens is awaited, so what it queues survives a restart right after the answer,
 * and it can never turn the import's outcome: a fault is one log line.
 */
import type { Run } from './run-state.js';

export async function tellEnded(run: Run, outcome: 'completed' | 'failed', reportId: string | null): Promise<void> {
  const listener = run.deps.onEnded;
  if (!listener) return;
  try {
    await listener({
      profileId: run.record.profileId,
      importId: run.record.id,
      reportId,
      outcome,
      suppressNotifications: run.params.suppressNotifications,
    });
  } catch (e) {
    run.deps.log('import.on_ended_failed', { import_id: run.record.id, error: (e as Error).message });
  }
}
