/**
 * A notice as each target takes it: Tally's own JSON (snake_case, like the API), a Slack incoming
 * webhook's `text` and `blocks` (mrkdwn, with `&`, `<` and `>` escaped so no test name becomes a
 * link or a mention), a Teams message carrying an Adaptive Card (what Teams' Workflows webhooks and
 * its incoming webhooks take), and an e-mail's subject and plain text. Lists are cut at LISTED tests
 * with "… and N more"; the JSON keeps every test `changesOf` kept.
 */
import { toldList } from '../totals.js';
import type { ChangeList } from './changes.js';
import type { Notice } from './notice.js';
import type { WebhookFormat } from '../store/notifications.js';

/** What is stored at the first attempt and sent unchanged by every later one. */
export type Rendered = { kind: 'webhook'; body: string } | { kind: 'email'; subject: string; text: string };

/** Tests named per list in chat and e-mail messages. */
export const LISTED = 10;
/** Slack's limit on a section's text. */
const SLACK_SECTION_CHARS = 3000;

const LISTS = [
  ['newFailures', 'New failures'],
  ['fixed', 'Fixed'],
  ['newlyFlaky', 'Newly flaky'],
] as const;

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** One line saying what happened: the title of every message. */
export function headline(n: Notice): string {
  const who = `Tally · ${n.profile.name}`;
  if (n.trigger === 'test') return `${who}: a test notification`;
  if (n.failedImport) {
    const codes = n.failedImport.errors.map((e) => e.code).filter(Boolean);
    return `${who}: an import failed${codes.length ? ` (${codes.join(', ')})` : ''}`;
  }
  const r = n.report!;
  const changes: string[] = [];
  if (n.changes?.newFailures.total) changes.push(plural(n.changes.newFailures.total, 'new failure', 'new failures'));
  if (n.changes?.fixed.total) changes.push(`${n.changes.fixed.total} fixed`);
  if (n.changes?.newlyFlaky.total) changes.push(`${n.changes.newlyFlaky.total} newly flaky`);
  return `${who}: report #${r.number} ${r.status}${changes.length ? `, ${changes.join(', ')}` : ''}`;
}

/** The lines under the headline: the counts, the CI build, the errors of a failed import. */
function summary(n: Notice): string[] {
  if (n.trigger === 'test') return ['This rule works: Tally reached this target.'];
  if (n.failedImport) return n.failedImport.errors.map((e) => `${e.code ?? 'error'}: ${e.message}`);
  const r = n.report!;
  const lines = [toldList(r.totals) + (n.changes?.base ? ` (compared with report #${n.changes.base.number})` : '')];
  const ci = r.ci;
  const build = [ci?.branch && `branch ${ci.branch}`, ci?.commit && `commit ${ci.commit.slice(0, 12)}`]
    .filter(Boolean)
    .join(', ');
  if (build) lines.push(build);
  return lines;
}

/** The link a message leads to: the report, the failed import's record, or the profile. */
function mainUrl(n: Notice): string {
  return n.report?.url ?? n.failedImport?.url ?? n.profile.url;
}

const testUrl = (n: Notice, seq: number | null) => (seq === null ? n.report!.url : `${n.report!.url}/nodes/${seq}`);

function listLines(n: Notice, list: ChangeList, line: (path: string, url: string) => string): string[] {
  const lines = list.tests.slice(0, LISTED).map((t) => line(t.titlePath.join(' › '), testUrl(n, t.seq)));
  if (list.total > lines.length) lines.push(`… and ${list.total - lines.length} more`);
  return lines;
}

function json(n: Notice): string {
  const list = (l: ChangeList) => ({
    total: l.total,
    tests: l.tests.map((t) => ({ title_path: t.titlePath, url: testUrl(n, t.seq) })),
  });
  const r = n.report;
  return JSON.stringify({
    id: n.deliveryId,
    trigger: n.trigger,
    events: n.events,
    text: headline(n),
    profile: { id: n.profile.number, name: n.profile.name, url: n.profile.url },
    report: r
      ? {
          id: r.number,
          url: r.url,
          status: r.status,
          date: r.date,
          totals: r.totals,
          ci: r.ci
            ? {
                provider: r.ci.provider,
                build_number: r.ci.buildNumber,
                build_url: r.ci.buildUrl,
                branch: r.ci.branch,
                commit: r.ci.commit,
                job: r.ci.job,
                pull_request: r.ci.pullRequest,
              }
            : null,
        }
      : null,
    import: n.failedImport
      ? { id: n.failedImport.id, status: 'failed', url: n.failedImport.url, errors: n.failedImport.errors }
      : null,
    changes: n.changes
      ? {
          base_report_id: n.changes.base?.number ?? null,
          new_failures: list(n.changes.newFailures),
          fixed: list(n.changes.fixed),
          newly_flaky: list(n.changes.newlyFlaky),
        }
      : null,
  });
}

/** Slack's mrkdwn: these three are its markup; everything else is text. */
const slackText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const cut = (s: string, max: number) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

function slack(n: Notice): string {
  const title = headline(n);
  const blocks: unknown[] = [
    {
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: cut(
          `*<${mainUrl(n)}|${slackText(title)}>*\n${summary(n).map(slackText).join('\n')}`,
          SLACK_SECTION_CHARS,
        ),
      },
    },
  ];
  for (const [key, label] of LISTS) {
    const list = n.changes?.[key];
    if (!list?.total) continue;
    const lines = listLines(n, list, (p, url) => `• <${url}|${slackText(p)}>`);
    blocks.push({
      type: 'section',
      text: { type: 'mrkdwn', text: cut(`*${label}*\n${lines.join('\n')}`, SLACK_SECTION_CHARS) },
    });
  }
  // `text` is what notifications and clients without blocks show.
  return JSON.stringify({ text: title, blocks });
}

function teams(n: Notice): string {
  const text = (value: string, extra: Record<string, unknown> = {}) => ({
    type: 'TextBlock',
    text: value,
    wrap: true,
    ...extra,
  });
  const body: unknown[] = [
    text(headline(n), { weight: 'Bolder', size: 'Medium' }),
    ...summary(n).map((line) => text(line, { spacing: 'Small' })),
  ];
  for (const [key, label] of LISTS) {
    const list = n.changes?.[key];
    if (!list?.total) continue;
    body.push(text(label, { weight: 'Bolder', spacing: 'Medium' }));
    // Adaptive Cards' TextBlock reads Markdown: each name is a link whose text is escaped.
    const lines = listLines(n, list, (p, url) => `- [${p.replace(/([\\[\]()*_`~>#])/g, '\\$1')}](${url})`);
    body.push(text(lines.join('\n'), { spacing: 'Small' }));
  }
  return JSON.stringify({
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body,
          actions: [{ type: 'Action.OpenUrl', title: n.report ? 'Open the report' : 'Open in Tally', url: mainUrl(n) }],
        },
      },
    ],
  });
}

function email(n: Notice): { subject: string; text: string } {
  const lines = [headline(n), '', ...summary(n), '', mainUrl(n)];
  for (const [key, label] of LISTS) {
    const list = n.changes?.[key];
    if (!list?.total) continue;
    lines.push('', `${label}:`, ...listLines(n, list, (p, url) => `- ${p}\n  ${url}`));
  }
  lines.push('', '--', `Sent by Tally for the rules of profile ${n.profile.name}: ${n.profile.url}/notifications`);
  return { subject: headline(n), text: `${lines.join('\n')}\n` };
}

export function render(n: Notice, target: { kind: 'webhook'; format: WebhookFormat } | { kind: 'email' }): Rendered {
  if (target.kind === 'email') return { kind: 'email', ...email(n) };
  const body = target.format === 'slack' ? slack(n) : target.format === 'teams' ? teams(n) : json(n);
  return { kind: 'webhook', body };
}
