/**
 * Resolves the attachment references of result files against the attached files, by path or by
 * path suffix (`[[ATTACHMENT|/ci/work/shots/a.png]]` finds `a.png` or `shots/a.png`). The longest
 * match wins.
 */
import type { AttachmentLink, StoredFile } from '../../store/types.js';
import type { AttachmentRef } from '../assemble/assembler.js';

function normalise(p: string): string {
  return p
    .trim()
    .replace(/\\/g, '/')
    .replace(/^(\.\/)+/, '')
    .replace(/^\/+/, '');
}

function matches(ref: string, name: string): boolean {
  return ref === name || ref.endsWith(`/${name}`) || name.endsWith(`/${ref}`);
}

export interface Resolution {
  /** Links by container seq. */
  links: Map<number, AttachmentLink[]>;
  missing: AttachmentRef[];
}

export function resolveAttachments(refs: AttachmentRef[], files: StoredFile[]): Resolution {
  const links = new Map<number, AttachmentLink[]>();
  const missing: AttachmentRef[] = [];
  const named = files.map((f) => ({ f, name: normalise(f.name) }));
  for (const r of refs) {
    // URLs and inline data are not files to find.
    if (/^(https?:|data:)/i.test(r.ref.trim())) continue;
    const ref = normalise(r.ref);
    let best: StoredFile | null = null;
    let bestLength = -1;
    for (const { f, name } of named) {
      if (matches(ref, name) && name.length > bestLength) {
        best = f;
        bestLength = name.length;
      }
    }
    if (!best) {
      missing.push(r);
      continue;
    }
    const list = links.get(r.seq) ?? [];
    if (!list.some((l) => l.blobId === best.blobId))
      list.push({ name: best.name, blobId: best.blobId, contentType: best.contentType, size: best.size });
    links.set(r.seq, list);
  }
  return { links, missing };
}
