/**
 * process_async at request time: the request was stored whole; its record becomes `queued` with
 * everything a replay needs, the queue runner is kicked, and the answer is 202 with the status URL.
 */
import type { Formatter } from '../../formatter/api.js';
import { applyFlags } from '../../messages.js';
import { answerBody } from '../finalize/answer.js';
import type { ImportAnswer, Run } from '../run-state.js';
import type { StoredRequest } from './stored-request.js';

export async function enqueue(
  run: Run,
  stored: StoredRequest,
  formatter: Formatter | null,
  bytes: number,
): Promise<ImportAnswer> {
  const { store } = run.deps;
  const messages = applyFlags([...run.early, ...run.params.messages()], run.params.flags);
  await store.imports.update(run.record.id, {
    status: 'queued',
    formatter: formatter?.key ?? null,
    params: run.params.received,
    tags: run.params.tags,
    files: stored.uploads,
    attachments: stored.attachments,
    // Only the messages of the request itself: the replay adds the parameter messages again.
    messages: run.early,
    progress: { bytes, files: stored.uploads.length, containers: 0 },
  });
  run.deps.onQueued();
  run.deps.log('import.queued', { import_id: run.record.id, files: stored.uploads.length, bytes });
  return {
    status: 202,
    body: answerBody({
      importId: run.record.id,
      reportNumber: run.report!.number,
      profileNumber: run.profileNumber,
      status: 'queued',
      messages,
      report: null,
      baseUrl: run.baseUrl,
    }),
  };
}
