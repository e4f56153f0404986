/**
 * From a stored link to a provider call: the one place a sealed token is opened, for one call at a
 * time, and the place every provider request gets its time limit. What starts runs, reads logs and
 * sends verdicts all go through here, so none of them handles a sealed value or forgets the limit.
 */
import { CiFault, type CiCall, type CiFetch, type CiProvider } from './api.js';
import type { CiRegistry } from './registry.js';
import type { SecretBox } from './secret-box.js';
import type { CiLink } from '../store/ci-links.js';

/** A provider that does not answer within this is `ci_provider_down`, not a page that hangs. */
export const CI_CALL_TIMEOUT_MS = 15_000;

export interface LinkCall {
  provider: CiProvider;
  call: CiCall;
}

/**
 * The provider and call for a link. A link whose provider this Tally no longer has, or whose token
 * does not open (another key, a copied value), is a coded fault the caller answers with.
 */
export function callForLink(
  link: CiLink,
  o: { providers: CiRegistry; box: SecretBox; fetch?: CiFetch; timeoutMs?: number },
): LinkCall {
  const provider = o.providers.get(link.provider);
  if (!provider) throw new CiFault('ci_unknown_job', `this Tally has no CI provider "${link.provider}"`);
  let token: string;
  try {
    token = o.box.open(link.sealedToken, link.profileId);
  } catch (e) {
    throw new CiFault('ci_bad_token', 'the saved token cannot be opened with TALLY_SECRET_KEY; save it again', {
      cause: e,
    });
  }
  const base = o.fetch ?? fetch;
  const timeoutMs = o.timeoutMs ?? CI_CALL_TIMEOUT_MS;
  // Each request gets its own limit, so a long log read in many chunks is not cut short as a whole.
  const limited: CiFetch = (input, init) =>
    base(input, { ...init, signal: AbortSignal.any([AbortSignal.timeout(timeoutMs), ...signals(init)]) });
  const { url, repository, branch, job } = link;
  return { provider, call: { target: { url, repository, branch, job, token }, fetch: limited } };
}

const signals = (init?: RequestInit): AbortSignal[] => (init?.signal ? [init.signal] : []);
