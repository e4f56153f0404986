/** What every page module is given: the store, the registry, where Tally is, and the asset URLs. */
import type { Request } from '@hapi/hapi';
import type { ImportDeps } from '../../lib/import/index.js';
import type { Registry } from '../../lib/formatter/registry.js';
import type { CiRegistry } from '../../lib/ci/registry.js';
import type { SecretBox } from '../../lib/ci/secret-box.js';
import type { RetentionRunner } from '../../lib/retention/runner.js';
import type { RuleSaving } from '../../lib/notify/rules.js';
import type { NotificationSender } from '../../lib/notify/sender.js';
import type { Store } from '../../lib/store/store.js';
import { baseUrl } from '../profiles.js';

export interface WebContext {
  store: Store;
  registry: Registry;
  publicUrl: string | null;
  importDeps: ImportDeps;
  /** Versioned URLs of the static files: a new build never meets a stale cached copy. */
  assets: { css: string; js: string; icon: string };
  signinFailuresPerMinute: number;
  /** CI links: the providers a link may name, and the box sealing tokens (null without TALLY_SECRET_KEY). */
  ci: { providers: CiRegistry; box: SecretBox | null };
  /** Told when a profile's retention policy is saved: its pass runs at once. */
  retention: Pick<RetentionRunner, 'profileChanged'>;
  /** Notifications: how rules are saved (the box, the address guard, whether SMTP is set) and the sender. */
  notify: { saving: RuleSaving; sender: NotificationSender };
}

export function origin(ctx: WebContext, request: Request): string {
  return baseUrl(request, ctx.publicUrl);
}
