/**
 * merge_containers: sibling containers with the same type and title are combined into the first,
 * level by level from the top (the same suite written by several CI nodes becomes one). The kept
 * one takes the worst status of those combined into it, as a suite shows its worst child. Tests are
 * never merged: every test entry stays a test. Runs in finalize, once every file is in.
 */
import { isCountedTest, worstStatus } from '../../formatter/api.js';
import type { StoredContainer } from '../../store/types.js';
import type { Store } from '../../store/store.js';

const PAGE = 1000;

async function children(store: Store, reportId: string, parentSeq: number | null): Promise<StoredContainer[]> {
  const out: StoredContainer[] = [];
  let afterSeq: number | undefined;
  for (;;) {
    const page = await store.containers.list(reportId, {
      parentSeq,
      limit: PAGE,
      ...(afterSeq !== undefined ? { afterSeq } : {}),
    });
    for (const c of page) if (!isCountedTest(c)) out.push(c);
    if (page.length < PAGE) return out;
    afterSeq = page[page.length - 1]!.seq;
  }
}

/**
 * Returns how many containers were combined into another. With `files` (file indexes), only the
 * containers of those files take part: the others are neither combined nor looked into.
 */
export async function mergeContainers(
  store: Store,
  reportId: string,
  files: ReadonlySet<number> | null = null,
): Promise<number> {
  let combined = 0;
  const queue: (number | null)[] = [null];
  while (queue.length > 0) {
    const parent = queue.shift()!;
    const groups = new Map<string, StoredContainer[]>();
    for (const c of await children(store, reportId, parent)) {
      if (files && !files.has(c.fileIndex)) continue;
      const key = `${c.type}\u0000${c.title}`;
      const g = groups.get(key);
      if (g) g.push(c);
      else groups.set(key, [c]);
    }
    for (const group of groups.values()) {
      const [keep, ...rest] = group as [StoredContainer, ...StoredContainer[]];
      if (rest.length > 0) {
        const seqs = rest.map((c) => c.seq);
        await store.containers.reparent(reportId, seqs, keep.seq);
        await store.containers.delete(reportId, seqs);
        const durations = group.map((c) => c.durationMs).filter((d): d is number => d !== null);
        const status = worstStatus(group.map((c) => c.status)) ?? keep.status;
        await store.containers.update(reportId, keep.seq, {
          ...(durations.length > 0 ? { durationMs: durations.reduce((a, b) => a + b, 0) } : {}),
          ...(status !== keep.status ? { status } : {}),
        });
        combined += rest.length;
      }
      queue.push(keep.seq);
    }
  }
  return combined;
}
