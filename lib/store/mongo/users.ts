/** Users and browser sessions in MongoDB. */
import type { Filter } from 'mongodb';
import { newUser } from '../records.js';
import { isoTime } from '../time.js';
import type { SessionStore, UserStore } from '../users.js';
import { toSession, toUser, type SessionDoc } from './collections.js';
import type { MongoConnection } from './connection.js';

export function userStore(conn: MongoConnection): UserStore {
  return {
    async create(input) {
      const user = newUser(input);
      const { id, ...rest } = user;
      try {
        await conn.c.users.insertOne({ _id: id, ...rest });
      } catch (e) {
        if ((e as { code?: number }).code === 11000) return null;
        throw e;
      }
      return user;
    },
    async get(id) {
      const doc = await conn.c.users.findOne({ _id: id });
      return doc ? toUser(doc) : null;
    },
    async findByEmail(email) {
      const doc = await conn.c.users.findOne({ email: email.toLowerCase() });
      return doc ? toUser(doc) : null;
    },
    async list(accountId) {
      const docs = await conn.c.users.find({ accountId }).sort({ createdAt: 1, _id: 1 }).toArray();
      return docs.map(toUser);
    },
    async setPassword(id, passwordHash, mustChangePassword) {
      await conn.c.users.updateOne({ _id: id }, { $set: { passwordHash, mustChangePassword } });
    },
  };
}

export function sessionStore(conn: MongoConnection): SessionStore {
  return {
    async add(x) {
      const { idHash, ...rest } = x;
      await conn.c.sessions.insertOne({ _id: idHash, ...rest });
    },
    async find(idHash) {
      const doc = await conn.c.sessions.findOne({ _id: idHash });
      return doc ? toSession(doc) : null;
    },
    async delete(idHash) {
      await conn.c.sessions.deleteOne({ _id: idHash });
    },
    async deleteOfUser(userId, keepIdHash) {
      const filter: Filter<SessionDoc> = { userId };
      if (keepIdHash !== undefined) filter._id = { $ne: keepIdHash };
      return (await conn.c.sessions.deleteMany(filter)).deletedCount;
    },
    async deleteExpired(at) {
      const expired = { expiresAt: { $lt: isoTime(at, 'deleteExpired: now') } };
      return (await conn.c.sessions.deleteMany(expired)).deletedCount;
    },
  };
}
