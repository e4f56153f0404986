/**
 * The ZAP vote: only ZAP writes an `OWASPZAPReport` root, in every version and template (no
 * namespace, no prefix). Its first child is `site` when the scan reached a site; a report of a scan
 * that reached none is the bare root.
 */
import { prefixedRoot, safeSniff } from '../../lib/formatter/api.js';

const ROOT_ATTRIBUTES = ['version', 'generated', 'programName', 'created'];

export const sniff = safeSniff((head) => {
  if (head.kind !== 'xml' || head.rootElement !== 'OWASPZAPReport' || prefixedRoot(head)) return 0;
  if (head.childElements[0] === 'site') return 0.95;
  return ROOT_ATTRIBUTES.some((a) => a in head.rootAttributes) ? 0.9 : 0.8;
});
