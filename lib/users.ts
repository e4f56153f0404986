/** People of an account: created with a one-time password that the first sign-in replaces. */
import { hashPassword, oneTimePassword } from './passwords.js';
import type { Store } from './store/store.js';
import type { User } from './store/types.js';

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}$/;

export class UserError extends Error {}

export function isEmail(value: string): boolean {
  return EMAIL.test(value);
}

/** Creates the user; the password is returned only here and never stored in clear. */
export async function createUserWithPassword(
  store: Store,
  accountId: string,
  email: string,
): Promise<{ user: User; password: string }> {
  const address = email.trim();
  if (!isEmail(address)) throw new UserError(`"${address}" is not an e-mail address`);
  if (!(await store.accounts.get(accountId))) throw new UserError(`there is no account ${accountId}`);
  const password = oneTimePassword();
  const user = await store.users.create({
    accountId,
    email: address,
    passwordHash: await hashPassword(password),
    mustChangePassword: true,
  });
  if (!user) throw new UserError(`the address ${address.toLowerCase()} already has a user`);
  return { user, password };
}
