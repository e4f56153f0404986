/**
 * The verdict's words: the commit status's one line and the pull-request comment's body, in
 * Markdown, from facts gathered elsewhere (verdict-facts.ts). Pure, so every case is a table row.
 *
 * Test names are other people's text: each is put in a code span, where neither Markdown, HTML
 * (`<img src=x>`), a table's `|` nor an @mention means anything, on one line. The body never
 * passes the limit it is given (GitHub refuses a comment over 65,536 characters): lists are cut
 * with "… and N more" and a link to the report, the smaller lists first given what they need.
 */
import { reportStatus, toldList } from '../totals.js';
import type { Totals } from '../store/types.js';

/** GitHub's limit for an issue or pull-request comment, in characters. */
export const MAX_COMMENT_CHARS = 65_536;
/** A test name longer than this is cut: the list is for finding it, the report has it whole. */
const MAX_NAME_CHARS = 300;

export interface VerdictTest {
  /** Title path, outermost first. */
  path: readonly string[];
  /** The test in the report's page, or null when there is no page for it. */
  url: string | null;
}

/** One list of the comment: the tests gathered (at most a bounded number) and how many there are. */
export interface VerdictList {
  tests: readonly VerdictTest[];
  total: number;
}

export interface VerdictFacts {
  profile: { number: number; name: string };
  /** The branch the report's CI context names; null when it named none. */
  branch: string | null;
  commit: string;
  report: { number: number; url: string; totals: Totals };
  /** The previous completed report of the branch, compared with; null when there is none. */
  previous: { number: number; url: string } | null;
  newFailures: VerdictList;
  fixed: VerdictList;
  flaky: VerdictList;
}

export type VerdictOutcome = 'passed' | 'failed';

/** Passed or failed as every page tells a report (a failed or errored test fails it). */
export const verdictOf = (t: Totals): VerdictOutcome => reportStatus(t);

/** The commit status's context: one per profile, so two profiles of one commit do not overwrite each other. */
export function statusContext(profileName: string): string {
  return `tally/${oneLine(profileName)}`;
}

/** "120 passed, 2 failed, 3 skipped": the counts as every page tells them. */
export function statusDescription(t: Totals): string {
  return toldList(t);
}

/**
 * What the provider finds its earlier comment by: the profile (by its number, which a rename keeps)
 * and the branch, percent-encoded so no name can end the HTML comment it is kept in.
 */
export function commentMarker(profileNumber: number, branch: string | null): string {
  return `tally-verdict profile=${profileNumber} branch=${encodeURIComponent(branch ?? '')}`;
}

/** How much of the limit the provider's `\n\n<!-- marker -->` takes (ci-providers/github). */
export function markerChars(marker: string): number {
  return `\n\n<!-- ${marker} -->`.length;
}

/** The comment's body, at most `limit` characters (the marker's share already taken off by the caller). */
export function commentBody(f: VerdictFacts, limit: number): string {
  const outcome = verdictOf(f.report.totals);
  const where = f.branch === null ? '' : ` on ${code(f.branch)}`;
  const head = [
    `### ${outcome === 'passed' ? '✅' : '❌'} Tally: ${outcome} · ${code(f.profile.name)}${where}`,
    '',
    `**${statusDescription(f.report.totals)}** in ${link(`report #${f.report.number}`, f.report.url)} ` +
      `of commit ${code(f.commit.slice(0, 12))}` +
      (f.previous
        ? `, compared with ${link(`report #${f.previous.number}`, f.previous.url)}.`
        : '. No earlier report of this branch: every failure is new.'),
  ].join('\n');
  const sections = [
    { title: 'New failures', list: f.newFailures, none: 'None.' },
    { title: 'Fixed', list: f.fixed, none: 'None.' },
    { title: 'Flaky', list: f.flaky, none: 'None.' },
  ];
  const more = (n: number) => `- … and ${n} more in ${link('the report', f.report.url)}`;
  const headings = sections.map((s) => `\n\n#### ${s.title} (${s.list.total})\n`);
  // What is written whatever the lists hold: the head, the headings, and each list's "more" line.
  const fixedChars =
    head.length +
    headings.reduce((n, h) => n + h.length, 0) +
    sections.reduce((n, s) => n + more(s.list.total).length + 1, 0);
  const lines = sections.map((s) => s.list.tests.map((t) => `- ${testLine(t)}`));
  const shares = shareOut(
    lines.map((l) => l.reduce((n, line) => n + line.length + 1, 0)),
    Math.max(0, limit - fixedChars),
  );
  let body = head;
  sections.forEach((s, i) => {
    body += headings[i];
    if (s.list.total === 0) {
      body += s.none;
      return;
    }
    const kept: string[] = [];
    let used = 0;
    for (const line of lines[i]!) {
      if (used + line.length + 1 > shares[i]!) break;
      kept.push(line);
      used += line.length + 1;
    }
    if (kept.length < s.list.total) kept.push(more(s.list.total - kept.length));
    body += kept.join('\n');
  });
  // The share-out keeps within the limit; this only guards a limit smaller than the fixed text.
  return body.length <= limit ? body : `${body.slice(0, Math.max(0, limit - 1))}…`;
}

/**
 * Splits `budget` among lists needing `needs` characters: the smallest first get what they need,
 * and what they leave goes to the others, so a short list of fixed tests is never cut for a long
 * list of failures.
 */
function shareOut(needs: readonly number[], budget: number): number[] {
  const shares = needs.map(() => 0);
  let left = budget;
  const order = needs.map((_, i) => i).sort((a, b) => needs[a]! - needs[b]!);
  order.forEach((i, k) => {
    const share = Math.min(needs[i]!, Math.floor(left / (order.length - k)));
    shares[i] = share;
    left -= share;
  });
  return shares;
}

function testLine(t: VerdictTest): string {
  const name = code(cut(t.path.map(oneLine).join(' › ')));
  return t.url ? link(name, t.url, true) : name;
}

function cut(text: string): string {
  return text.length > MAX_NAME_CHARS ? `${text.slice(0, MAX_NAME_CHARS - 1)}…` : text;
}

/** Control characters (newlines above all) would end the list item or the heading: spaces instead. */
function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim();
}

/**
 * A code span around any text: a fence one backtick longer than the longest run inside it, and a
 * space either side when the text starts or ends with a backtick, which CommonMark strips again.
 * Inside it nothing is Markdown or HTML.
 */
export function code(text: string): string {
  const t = oneLine(text) || ' ';
  const longest = Math.max(0, ...[...t.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = t.startsWith('`') || t.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${t}${pad}${fence}`;
}

/** `[text](url)`: the text escaped unless it is already a code span, the URL kept inside its brackets. */
function link(text: string, url: string, isCode = false): string {
  const label = isCode ? text : text.replace(/[\\[\]*_`<>&]/g, (c) => `\\${c}`);
  return `[${label}](${url.replace(/[()\s<>]/g, (c) => encodeURIComponent(c))})`;
}
