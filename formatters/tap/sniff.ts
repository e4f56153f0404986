/**
 * The TAP vote. TAP is text: a `TAP version` line, a plan `1..N` or `ok`/`not ok` test points in
 * column 0. Output captured from a shell may start with other lines (`> pkg@1.0.0 test`), so the
 * first lines are searched. JSON and XML are never TAP, and Go's plain `go test` summary
 * (`ok  \tpkg\t0.1s`) is not TAP although its lines start with `ok`.
 */
import { safeSniff } from '../../lib/formatter/api.js';

const MAX_LINES = 400;
const VERSION = /^TAP version 1[234]\s*$/i;
const PLAN = /^1\.\.\d+\s*(?:#.*)?$/;
const POINT = /^(?:not )?ok(?:\s+\d+)?(?:\s+-)?(?:\s|$)/;
const GO_TEXT = /^(?:=== RUN\s|--- (?:PASS|FAIL|SKIP):|ok\s+\S+\t|FAIL\t\S+|PASS$)/;

export const sniff = safeSniff((head) => {
  if (head.kind === 'xml' || head.kind === 'binary') return 0;
  const lines = head.text.split('\n', MAX_LINES + 1).slice(0, MAX_LINES);
  if (!head.complete && lines.length > 1) lines.pop();
  if (head.kind === 'json' && looksLikeJson(lines)) return 0;
  let version = false;
  let plan = false;
  let points = 0;
  let numbered = 0;
  let go = 0;
  for (const raw of lines) {
    const line = raw.replace(/\r$/, '');
    if (VERSION.test(line)) version = true;
    else if (PLAN.test(line)) plan = true;
    else if (GO_TEXT.test(line)) go++;
    else if (POINT.test(line)) {
      points++;
      if (/^(?:not )?ok\s+\d+/.test(line)) numbered++;
    }
  }
  let score = 0;
  if (version) score = 0.95;
  else if (plan && points > 0) score = 0.9;
  else if (plan) score = 0.65;
  // Without a version or plan, one line starting with `ok` is prose, not TAP.
  else if (numbered >= 2) score = 0.7;
  else if (points >= 2) score = 0.55;
  if (score === 0) return 0;
  if (!version && go > 0 && go >= points) return 0.2;
  if (head.extension === '.tap') score = Math.min(1, Math.round((score + 0.05) * 100) / 100);
  return score;
});

/** The first line is a JSON value or opens one: the file is JSON that happens to start with `{`/`[`. */
function looksLikeJson(lines: string[]): boolean {
  const first = lines.find((l) => l.trim() !== '')?.trim() ?? '';
  if (first === '{' || first === '[' || /^[[{]\s*["{[\]}]/.test(first)) return true;
  try {
    JSON.parse(first);
    return true;
  } catch {
    return false;
  }
}
