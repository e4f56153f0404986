/** Users and browser sessions in the embedded database. */
import { newUser } from '../records.js';
import { isoTime } from '../time.js';
import type { SessionStore, UserStore } from '../users.js';
import type { EmbeddedDatabase } from './database.js';
import { toSession, toUser } from './rows.js';

export function userStore(d: EmbeddedDatabase): UserStore {
  return {
    async create(input) {
      const user = newUser(input);
      try {
        d.s.insertUser.run(
          user.id,
          user.accountId,
          user.email,
          user.passwordHash,
          user.mustChangePassword ? 1 : 0,
          user.createdAt,
        );
      } catch (err) {
        if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') return null;
        throw err;
      }
      return user;
    },
    async get(id) {
      const row = d.s.getUser.get(id);
      return row ? toUser(row) : null;
    },
    async findByEmail(email) {
      const row = d.s.findUserByEmail.get(email.toLowerCase());
      return row ? toUser(row) : null;
    },
    async list(accountId) {
      return d.s.listUsers.all(accountId).map(toUser);
    },
    async setPassword(id, passwordHash, mustChangePassword) {
      d.s.setUserPassword.run(passwordHash, mustChangePassword ? 1 : 0, id);
    },
  };
}

export function sessionStore(d: EmbeddedDatabase): SessionStore {
  return {
    async add(x) {
      d.s.insertSession.run(x.idHash, x.userId, x.accountId, x.csrfToken, x.createdAt, x.expiresAt);
    },
    async find(idHash) {
      const row = d.s.findSession.get(idHash);
      return row ? toSession(row) : null;
    },
    async delete(idHash) {
      d.s.deleteSession.run(idHash);
    },
    async deleteOfUser(userId, keepIdHash) {
      const keep = keepIdHash ?? null;
      return d.s.deleteUserSessions.run(userId, keep, keep).changes;
    },
    async deleteExpired(at) {
      return d.s.deleteExpiredSessions.run(isoTime(at, 'deleteExpired: now')).changes;
    },
  };
}
