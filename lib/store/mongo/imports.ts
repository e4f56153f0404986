/** Import records in MongoDB, and the queue's claim documents. */
import type { ImportRecords } from '../imports.js';
import { now } from '../time.js';
import type { ImportStatus } from '../types.js';
import { importDoc, importPatchDoc, messageDoc, toImport } from './collections.js';
import type { MongoConnection } from './connection.js';

const LIVE_IMPORT: ImportStatus[] = ['receiving', 'processing'];

export function importRecords(conn: MongoConnection): ImportRecords {
  return {
    async insert(record) {
      await conn.c.imports.insertOne(importDoc(record));
    },
    async get(id) {
      const doc = await conn.c.imports.findOne({ _id: id });
      return doc ? toImport(doc) : null;
    },
    async update(id, patch, fields) {
      await conn.c.imports.updateOne({ _id: id }, { $set: importPatchDoc(patch, fields) });
    },
    async claimQueued() {
      // The claim is an insert under a unique _id: exactly one caller can make it, on MongoDB and on
      // FerretDB alike. (A conditional findOneAndUpdate or updateOne let two concurrent callers take
      // the same import on FerretDB 1.24.) Claim documents are kept: a late caller must still lose.
      const c = conn.c;
      const candidates = await c.imports.find({ status: 'queued' }).sort({ createdAt: 1, _id: 1 }).limit(8).toArray();
      for (const candidate of candidates) {
        try {
          await c.importClaims.insertOne({ _id: candidate._id, claimedAt: now() });
        } catch (e) {
          if ((e as { code?: number }).code === 11000) continue;
          throw e;
        }
        await c.imports.updateOne({ _id: candidate._id }, { $set: { status: 'processing' } });
        return toImport({ ...candidate, status: 'processing' });
      }
      return null;
    },
    async stale(olderThan) {
      const stale = await conn.c.imports
        .find({ status: { $in: LIVE_IMPORT }, createdAt: { $lt: olderThan } }, { projection: { _id: 1 } })
        .toArray();
      return stale.map((d) => d._id);
    },
    async end(id, message, finishedAt) {
      // Conditional and atomic: an import that finished meanwhile, or that another Tally instance's
      // sweep already ended, is left alone; the returned reportId is the current one.
      const doc = await conn.c.imports.findOneAndUpdate(
        { _id: id, status: { $in: LIVE_IMPORT } },
        { $set: { status: 'failed', finishedAt }, $push: { messages: messageDoc(message) } },
        // No projection: FerretDB 1.24 answers NotImplemented to findAndModify with `fields`.
        { returnDocument: 'after' },
      );
      return doc ? { reportId: doc.reportId } : null;
    },
  };
}
