/**
 * A client in its own process, as a CI step is: posts a body of `bytes` in 16 KiB writes, as fast
 * as the socket takes them, `tries` times, and prints one JSON line per try: the answer's status
 * and first message code, or the error the client saw. In the server's own process the event loop
 * orders the two sides and the race an early answer runs into hardly shows.
 *
 *   node --import tsx test/helpers/post-while-sending.ts URL HEADERS_JSON BYTES TRIES
 */
import http from 'node:http';

export type Outcome = { status: number; code: string | undefined } | { error: string };

function post(url: string, headers: http.OutgoingHttpHeaders, bytes: number): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = http.request(url, { method: 'POST', headers, agent: false });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, code: JSON.parse(text).messages?.[0]?.code });
        req.destroy();
      });
    });
    req.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }));
    const chunk = Buffer.alloc(16 * 1024, 0x61);
    let sent = 0;
    const more = (): void => {
      if (req.destroyed) return;
      if (sent >= bytes) return void req.end();
      sent += chunk.length;
      if (req.write(chunk)) setImmediate(more);
      else req.once('drain', more);
    };
    more();
  });
}

const [url, headers, bytes, tries] = process.argv.slice(2);
if (url && headers && bytes && tries) {
  for (let i = 0; i < Number(tries); i++)
    console.log(JSON.stringify(await post(url, JSON.parse(headers), Number(bytes))));
}
