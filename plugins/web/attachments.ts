/**
 * Attachments served to the browser. An attachment is shown inline only when its first bytes are a
 * PNG, JPEG, GIF or WebP image — what the uploader claimed does not count — and then with that
 * type; everything else (SVG and HTML included, which could run script in Tally's origin) is a
 * download of type application/octet-stream. Always `nosniff` and a sandboxing CSP.
 */
import type { ResponseObject, ResponseToolkit } from '@hapi/hapi';
import type { StoredFile } from '../../lib/store/types.js';
import type { Store } from '../../lib/store/store.js';

export type ImageType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

const BY_EXTENSION: Record<string, ImageType> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
};
const IMAGE_TYPES = new Set<string>(Object.values(BY_EXTENSION));

/** Whether the page should try an <img>: the claimed type or the name says raster image. */
export function inlineImageType(contentType: string | null, name: string): boolean {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (IMAGE_TYPES.has(type)) return true;
  const ext = name.toLowerCase().split('.').pop() ?? '';
  return ext in BY_EXTENSION;
}

/** The image type the bytes themselves show, or null. */
export function sniffImage(head: Buffer): ImageType | null {
  if (head.length >= 8 && head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'image/png';
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  if (head.length >= 6 && /^GIF8[79]a$/.test(head.subarray(0, 6).toString('latin1'))) return 'image/gif';
  if (
    head.length >= 12 &&
    head.subarray(0, 4).toString('latin1') === 'RIFF' &&
    head.subarray(8, 12).toString('latin1') === 'WEBP'
  )
    return 'image/webp';
  return null;
}

async function headOf(store: Store, blobId: string): Promise<Buffer | null> {
  const stream = await store.blobs.open(blobId);
  if (!stream) return null;
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream) {
      chunks.push(chunk as Buffer);
      size += (chunk as Buffer).length;
      if (size >= 16) break;
    }
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks).subarray(0, 16);
}

export async function safeAttachment(store: Store, h: ResponseToolkit, file: StoredFile): Promise<ResponseObject> {
  const head = await headOf(store, file.blobId);
  const stream = head ? await store.blobs.open(file.blobId) : null;
  if (!head || !stream) return h.response('').code(404);
  const image = sniffImage(head);
  const name = encodeURIComponent(file.name.split('/').pop() ?? 'attachment');
  return h
    .response(stream)
    .type(image ?? 'application/octet-stream')
    .header('content-disposition', `${image ? 'inline' : 'attachment'}; filename*=UTF-8''${name}`)
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; sandbox")
    .header('cache-control', 'private, max-age=3600')
    .header('content-length', String(file.size));
}
