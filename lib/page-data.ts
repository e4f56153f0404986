/**
 * What the upload and account pages show, as data: the pages render it, and their JSON twins in the
 * read API return it, so scripts see what people see.
 */
import { isImportedKey } from './api-keys.js';
import { FLAGS, type Flag } from './messages.js';
import type { Registry } from './formatter/registry.js';
import { ciSnippets, uploadCommand, type CiSnippets } from './client/snippets.js';
import type { Store } from './store/store.js';
import type { ApiKeyRecord, Profile } from './store/types.js';

export interface UploadInfo {
  /** The profile's public number. */
  profile_id: number;
  profile_name: string;
  import_url: string;
  /** The personalised command; the key comes from the environment, never from a page. */
  curl: string;
  /** The same with the upload client this Tally serves (`/tally-upload.mjs`, the `tally upload` command). */
  tally_upload: string;
  /** Steps for GitHub Actions, GitLab CI and Jenkins that run it. */
  ci: CiSnippets;
  formatters: { key: string; title: string; extensions: string[] }[];
  flags: Flag[];
  tag_example: string;
}

export function uploadInfo(registry: Registry, profile: Profile, origin: string): UploadInfo {
  const importUrl = `${origin}/api/v2/profile/${profile.number}/import`;
  return {
    profile_id: profile.number,
    profile_name: profile.name,
    import_url: importUrl,
    curl: [
      `curl -sS -H "x-api-key: $TALLY_API_KEY" \\`,
      `  -F 'file[]=@build/test-results/results.xml' \\`,
      `  -F 'tag[]=branch:main' \\`,
      `  '${importUrl}/junit'`,
    ].join('\n'),
    tally_upload: uploadCommand(origin, String(profile.number)),
    ci: ciSnippets(origin, String(profile.number)),
    formatters: registry.all().map((f) => ({ key: f.key, title: f.title, extensions: [...f.extensions] })),
    flags: [...FLAGS],
    tag_example: 'branch:main',
  };
}

export interface AccountInfo {
  account_id: string;
  name: string;
  /** The live key, masked: its public id only. The secret is shown once, when made. */
  api_key: { key_id: string; masked: string; created_at: string } | null;
  users: { id: string; email: string; created_at: string; must_change_password: boolean }[];
}

export function maskKey(key: ApiKeyRecord): string {
  // An imported key has no part of its own that may be shown.
  if (isImportedKey(key)) return `imported key ${'•'.repeat(12)}`;
  return `tly_${key.keyId}_${'•'.repeat(12)}`;
}

export async function accountInfo(store: Store, accountId: string): Promise<AccountInfo | null> {
  const account = await store.accounts.get(accountId);
  if (!account) return null;
  const live = (await store.keys.list(accountId)).filter((k) => k.revokedAt === null).pop() ?? null;
  const users = await store.users.list(accountId);
  return {
    account_id: account.id,
    name: account.name,
    api_key: live ? { key_id: live.keyId, masked: maskKey(live), created_at: live.createdAt } : null,
    users: users.map((u) => ({
      id: u.id,
      email: u.email,
      created_at: u.createdAt,
      must_change_password: u.mustChangePassword,
    })),
  };
}
