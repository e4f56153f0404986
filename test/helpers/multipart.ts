/** Builds multipart/form-data bodies byte by byte, so tests control every header and boundary. */
export interface Part {
  name: string;
  value: string | Buffer;
  filename?: string;
  contentType?: string;
  headers?: Record<string, string>;
}

export const BOUNDARY = 'tallytestboundary7MA4YWxkTrZu0gW';

export function multipart(parts: Part[], boundary = BOUNDARY): { body: Buffer; contentType: string } {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"`;
    if (p.filename !== undefined) head += `; filename="${p.filename}"`;
    head += '\r\n';
    if (p.contentType) head += `Content-Type: ${p.contentType}\r\n`;
    for (const [k, v] of Object.entries(p.headers ?? {})) head += `${k}: ${v}\r\n`;
    chunks.push(
      Buffer.from(`${head}\r\n`),
      Buffer.isBuffer(p.value) ? p.value : Buffer.from(p.value),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

export function file(
  name: string,
  filename: string,
  value: string | Buffer,
  contentType = 'application/octet-stream',
): Part {
  return { name, filename, value, contentType };
}

export function field(name: string, value: string): Part {
  return { name, value };
}
