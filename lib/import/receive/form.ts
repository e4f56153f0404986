/**
 * A multipart form, part by part in the order sent: fields (and the flags and tags real uploaders
 * send as file parts, `-F merge_containers=@flag.txt`) go into the parameters, file[] and
 * attachment[] parts to the receiver, parts of unknown names are read and dropped.
 */
import type { Readable } from 'node:stream';
import type { Limits } from '../../config.js';
import { ImportFault } from '../../messages.js';
import type { StoredFile } from '../../store/types.js';
import { bindToActive } from '../../telemetry/spans.js';
import { emptyPartName } from './empty-files.js';
import { readMultipart } from './multipart.js';
import type { ImportParams } from './params.js';

/** Where received files go: parsed now (Uploads), or stored whole for the queue (StoredRequest). */
export interface PartReceiver {
  readonly uploads: readonly StoredFile[];
  /** False when the part held no bytes (nothing is kept). */
  addUpload(source: AsyncIterable<Buffer>, rawName: string, contentType: string | null): Promise<boolean>;
  addAttachment(source: AsyncIterable<Buffer>, rawName: string, contentType: string | null): Promise<void>;
}

export interface FormHandlers {
  /** The receiver, made when the first file or attachment comes (process_async is known by then). */
  receiver(): PartReceiver;
  /** Told after each field: a `formatter` field may have named the formatter. */
  fieldRead(): void;
}

/** Reads the whole form; resolves to the names of the file[] parts that held no bytes. */
export async function readForm(
  body: Readable,
  contentType: string,
  limits: Limits,
  params: ImportParams,
  on: FormHandlers,
): Promise<{ emptyFiles: string[] }> {
  const emptyFiles: string[] = [];
  await readMultipart(body, contentType, limits, {
    field: (name, value) => {
      params.addValue(name, value);
      on.fieldRead();
    },
    // Parts arrive on the request stream's events: their spans belong under this import.
    file: bindToActive(
      async (name: string, fileName: string | undefined, stream: Readable, mime: string | undefined) => {
        const n = params.notePart(name, fileName);
        if (n.role === 'file') {
          const added = await on.receiver().addUpload(stream, fileName ?? 'file', mime ?? null);
          if (!added) emptyFiles.push(emptyPartName(name, fileName));
        } else if (n.role === 'attachment') {
          await on.receiver().addAttachment(stream, fileName ?? 'attachment', mime ?? null);
        } else if (n.role === 'unknown') {
          stream.resume();
        } else {
          // Real uploaders send flags and tags as file parts (`-F merge_containers=@flag.txt`).
          params.addValue(name, await smallText(stream, limits.maxFieldBytes, name));
          on.fieldRead();
        }
      },
    ),
  });
  return { emptyFiles };
}

/** A flag or tag sent as a file part, as text, refused past the field limit. */
async function smallText(stream: Readable, limit: number, name: string): Promise<string> {
  const chunks: Buffer[] = [];
  let n = 0;
  for await (const chunk of stream) {
    n += (chunk as Buffer).length;
    if (n > limit) {
      stream.resume();
      throw new ImportFault('multipart_limit_exceeded', {
        detail: `The field "${name.slice(0, 60)}" is longer than ${limit} bytes.`,
        details: { limit: 'fieldSize' },
      });
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
