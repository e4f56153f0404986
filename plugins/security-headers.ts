/**
 * Security headers on every answer (API, web pages, downloads, faults): the type is never sniffed,
 * no page of Tally can be framed, no referrer leaves it, and a Content-Security-Policy without
 * 'unsafe-inline' or 'unsafe-eval' limits pages to Tally's own scripts, styles and images. HSTS is
 * sent only when TALLY_PUBLIC_URL says the service is reached over https (over plain http it would
 * mean nothing, and a wrong one locks browsers out of the host for a year). A route that sets one
 * of these headers itself keeps its own.
 */
import type { Plugin, Request, ResponseObject, ResponseToolkit } from '@hapi/hapi';
import type { Boom } from '@hapi/boom';

export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const HSTS = 'max-age=31536000; includeSubDomains';

export function securityHeaders(publicUrl: string | null): Record<string, string> {
  return {
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
    'content-security-policy': CONTENT_SECURITY_POLICY,
    ...(publicUrl?.toLowerCase().startsWith('https://') ? { 'strict-transport-security': HSTS } : {}),
  };
}

export const securityHeadersPlugin: Plugin<{ publicUrl: string | null }> = {
  name: 'tally-security-headers',
  register(server, { publicUrl }) {
    const headers = securityHeaders(publicUrl);
    server.ext('onPreResponse', (request: Request, h: ResponseToolkit) => {
      const response = request.response as Boom | ResponseObject;
      if ('isBoom' in response && response.isBoom) {
        for (const [name, value] of Object.entries(headers)) response.output.headers[name] ??= value;
        return h.continue;
      }
      const own = (response as ResponseObject).headers;
      for (const [name, value] of Object.entries(headers))
        if (own[name] === undefined) (response as ResponseObject).header(name, value);
      return h.continue;
    });
  },
};
