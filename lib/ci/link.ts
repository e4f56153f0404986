/**
 * A CI link as a person or a client sends it (`{ provider, url, repository, branch, job, token }`,
 * and `verdict` to send the verdict back), checked field by field: each problem is one sentence
 * naming the field, and never repeats the token. The token may be left out when the profile has a
 * link already: the sealed one is kept, so a form can change the branch without asking for the
 * token again.
 */

export interface LinkFields {
  provider: string;
  url: string;
  repository: string;
  branch: string;
  job: string;
  /** Absent: keep the token the link has. */
  token: string | null;
  /** Send a commit status and a pull-request comment after each import; false when not given. */
  verdict: boolean;
}

const LIMITS = { repository: 200, branch: 250, job: 200, token: 4096, url: 2048 } as const;
// Control characters (C0, DEL, C1) in any field: they have no place in a name or a token.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * `providers` are the keys a link may name, `verdictProviders` those of them that can take the
 * verdict back (lib/ci/registry.ts `sendsVerdict`).
 */
export function checkLink(
  body: unknown,
  providers: readonly string[],
  hasToken: boolean,
  verdictProviders: readonly string[],
): { link: LinkFields } | { problem: string } {
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    return { problem: 'The body must be a JSON object with provider, url, repository, branch, job and token.' };
  const b = body as Record<string, unknown>;
  const known = new Set(['provider', 'url', 'repository', 'branch', 'job', 'token', 'verdict']);
  const extra = Object.keys(b).filter((k) => !known.has(k));
  if (extra.length)
    return { problem: `Unknown field ${JSON.stringify(extra[0])}; a link has ${[...known].join(', ')}.` };

  if (typeof b.provider !== 'string' || !providers.includes(b.provider))
    return {
      problem: providers.length
        ? `"provider" must be one of ${providers.map((p) => `"${p}"`).join(', ')}.`
        : '"provider": this Tally has no CI provider.',
    };
  const url = checkUrl(b.url);
  if ('problem' in url) return url;
  const text: Partial<Record<'repository' | 'branch' | 'job', string>> = {};
  for (const field of ['repository', 'branch', 'job'] as const) {
    const v = typeof b[field] === 'string' ? (b[field] as string).trim() : null;
    if (!v || v.length > LIMITS[field] || CONTROL.test(v))
      return { problem: `"${field}" must be text of 1 to ${LIMITS[field]} characters without control characters.` };
    text[field] = v;
  }
  let token: string | null = null;
  if (b.token === undefined || b.token === null || b.token === '') {
    if (!hasToken) return { problem: '"token" is required: the provider needs it to start and read the job.' };
  } else if (
    typeof b.token !== 'string' ||
    b.token.length > LIMITS.token ||
    /\s/.test(b.token) ||
    CONTROL.test(b.token)
  )
    return { problem: `"token" must be text of 1 to ${LIMITS.token} characters without spaces.` };
  else token = b.token;
  if (b.verdict !== undefined && b.verdict !== null && typeof b.verdict !== 'boolean')
    return { problem: '"verdict" must be true or false.' };
  const verdict = b.verdict === true;
  if (verdict && !verdictProviders.includes(b.provider))
    return {
      problem:
        `"verdict": the ${b.provider} provider cannot send the verdict back ` +
        '(it has no commit status or pull-request comment); leave it false.',
    };
  return {
    link: {
      provider: b.provider,
      url: url.url,
      repository: text.repository!,
      branch: text.branch!,
      job: text.job!,
      token,
      verdict,
    },
  };
}

/** An http(s) base URL without user, query or fragment; trailing slashes dropped. */
function checkUrl(raw: unknown): { url: string } | { problem: string } {
  const problem = {
    problem: '"url" must be the CI system\'s http or https base URL, without user, password, query or fragment.',
  };
  if (typeof raw !== 'string' || raw.length > LIMITS.url || CONTROL.test(raw)) return problem;
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    return problem;
  }
  if ((u.protocol !== 'http:' && u.protocol !== 'https:') || u.username || u.password || u.search || u.hash)
    return problem;
  return { url: `${u.origin}${u.pathname}`.replace(/\/+$/, '') };
}
