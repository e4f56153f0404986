/**
 * A message a form leaves for the page it redirects to ("Profile “nightly” created"): one short
 * cookie, read and cleared by the next page that shows it, so reloading that page does not repeat
 * it and the form is never posted twice. Its text is escaped like every other value on the page.
 */
import type { Request, ResponseObject, ResponseToolkit, Server } from '@hapi/hapi';

export const FLASH_COOKIE = 'tally_flash';

export function registerFlash(server: Server, o: { publicUrl: string | null }): void {
  server.state(FLASH_COOKIE, {
    // Encoded here: hapi's base64json reads the JSON as Latin-1, which cuts “ and ✓ to control bytes.
    encoding: 'none',
    isSecure: (o.publicUrl ?? '').startsWith('https:'),
    isHttpOnly: true,
    isSameSite: 'Lax',
    path: '/',
    ttl: 60 * 1000,
    strictHeader: true,
    clearInvalid: true,
    ignoreErrors: true,
  });
}

/** A 303 to `to` that shows `text` there, once. */
export function redirectWithFlash(h: ResponseToolkit, to: string, text: string): ResponseObject {
  return h
    .redirect(to)
    .code(303)
    .state(FLASH_COOKIE, Buffer.from(text.slice(0, 500)).toString('base64url'));
}

/** The text a redirect left for this page, or null; it is cleared with this answer. */
export function takeFlash(request: Request, h: ResponseToolkit): string | null {
  const value = (request.state as Record<string, unknown> | null)?.[FLASH_COOKIE];
  if (value === undefined) return null;
  h.unstate(FLASH_COOKIE);
  return typeof value === 'string' && /^[\w-]{1,2000}$/.test(value)
    ? Buffer.from(value, 'base64url').toString('utf8')
    : null;
}
