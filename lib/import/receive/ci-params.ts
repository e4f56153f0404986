/**
 * The `ci_*` fields of an import: the CI build that produced the results (`tally upload` reads them
 * from the runner's environment; any client may send them). Each is optional. A value that cannot be
 * right (an unknown provider, a commit that is not a hex object name, a build URL that is not
 * http(s), anything too long) is left out with the warning `ci_context_invalid`, and the import goes
 * on: a report without its CI context is better than no report.
 */
import { message } from '../../messages.js';
import type { Message, ReportCi } from '../../store/types.js';

/** Field name → the ReportCi key it fills. */
export const CI_FIELDS: ReadonlyMap<string, keyof ReportCi> = new Map([
  ['ci_provider', 'provider'],
  ['ci_build_number', 'buildNumber'],
  ['ci_build_url', 'buildUrl'],
  ['ci_branch', 'branch'],
  ['ci_commit', 'commit'],
  ['ci_job', 'job'],
  ['ci_pull_request', 'pullRequest'],
]);

export const CI_PROVIDERS: ReadonlySet<string> = new Set([
  'github',
  'gitea',
  'forgejo',
  'gitlab',
  'jenkins',
  'buildkite',
  'circleci',
  'azure',
]);

// Long enough for any real branch, job or build number; a run URL may carry a query string.
const MAX_CHARS = 256;
const MAX_URL_CHARS = 2048;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Why `value` is not kept for `key`, or null when it is fine. */
function fault(key: keyof ReportCi, value: string): string | null {
  if (value.length > (key === 'buildUrl' ? MAX_URL_CHARS : MAX_CHARS)) return 'too long';
  if (CONTROL.test(value)) return 'contains control characters';
  if (key === 'provider' && !CI_PROVIDERS.has(value)) return `not one of ${[...CI_PROVIDERS].join(', ')}`;
  if (key === 'commit' && !/^[0-9a-f]{7,64}$/.test(value)) return 'not a hex commit id';
  if (key === 'pullRequest' && !(/^[1-9][0-9]{0,9}$/.test(value) && Number(value) <= 2 ** 31 - 1))
    return 'not a positive integer';
  if (key === 'buildUrl') {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return 'not a URL';
    }
    // A link the reports page renders: javascript: and the like must never get there.
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'not an http(s) URL';
  }
  return null;
}

export class CiParams {
  private readonly values: ReportCi = {
    provider: null,
    buildNumber: null,
    buildUrl: null,
    branch: null,
    commit: null,
    job: null,
    pullRequest: null,
  };
  private readonly dropped = new Map<string, string>();

  /** A `ci_*` field; the last value sent for a name wins, as for other scalar parameters. */
  add(name: string, raw: string): void {
    const key = CI_FIELDS.get(name)!;
    let value = raw.trim();
    if (key === 'provider' || key === 'commit') value = value.toLowerCase();
    const why = value === '' ? null : fault(key, value);
    this.dropped.delete(name);
    if (why !== null) this.dropped.set(name, why);
    const kept = value === '' || why !== null ? null : value;
    if (key === 'pullRequest') this.values.pullRequest = kept === null ? null : Number(kept);
    else this.values[key] = kept;
  }

  /** What the report keeps: null when no field was sent or kept. */
  context(): ReportCi | null {
    return Object.values(this.values).some((v) => v !== null) ? { ...this.values } : null;
  }

  messages(): Message[] {
    if (this.dropped.size === 0) return [];
    const names = [...this.dropped.keys()];
    return [
      message('ci_context_invalid', {
        detail: [...this.dropped].map(([n, why]) => `${n}: ${why}.`).join(' '),
        details: { parameters: names },
      }),
    ];
  }
}
