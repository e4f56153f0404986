/** An upload held open: its import runs (receiving, its report being built) until the test lets it finish. */
import { BOUNDARY } from './multipart.js';
import { junitXml } from './junit.js';
import type { Harness, Reply } from './tally.js';

/** An upload that has sent its first part and waits: its import is running until `finish()`. */
export function heldUpload(h: Harness, profileId: string | number): { answer: Promise<Reply>; finish: () => void } {
  let finish!: () => void;
  const go = new Promise<void>((resolve) => (finish = resolve));
  async function* body(): AsyncGenerator<Buffer> {
    yield Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file[]"; filename="TEST-held.xml"\r\n` +
        'Content-Type: application/xml\r\n\r\n',
    );
    await go;
    yield Buffer.from(`${junitXml()}\r\n--${BOUNDARY}--\r\n`);
  }
  const answer = h.send({
    path: `/api/v2/profile/${profileId}/import/junit`,
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    body: body(),
  });
  return { answer, finish };
}

/** Waits for the held upload's import to run in the profile (by UUID or number); its report's UUID. */
export async function runningImport(h: Harness, profile: string | number): Promise<string> {
  const profileId = (await h.store.profiles.get(profile))!.id;
  for (let i = 0; i < 400; i++) {
    const id = await h.latestImportId();
    const record = id ? await h.store.imports.get(id) : null;
    if (record?.profileId === profileId && record.status === 'receiving' && record.reportId) return record.reportId;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('the held upload never started its import');
}
