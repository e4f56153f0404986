/**
 * The Robot Framework vote: root `<robot>`. Robot and Rebot name themselves in `generator`; without
 * it, a first child `<suite>` is the evidence. (`--xunit` output is JUnit XML: not ours.)
 */
import { safeSniff } from '../../lib/formatter/api.js';

export const sniff = safeSniff((head) => {
  if (head.kind !== 'xml' || head.rootElement !== 'robot') return 0;
  if (/^\s*(robot|rebot)\b/i.test(head.rootAttributes['generator'] ?? '')) return 0.95;
  if (head.childElements[0] === 'suite') return 0.85;
  // A bare <robot> of some other vocabulary is possible; <robot/> alone is not enough.
  return 0.3;
});
