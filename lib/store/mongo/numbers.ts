/**
 * The public numbers in MongoDB (lib/store/numbers.ts), race-free however many Tally instances share
 * the database. A number is claimed by inserting a `numbers` document whose `_id` names it: a
 * unique-key insert is atomic on every MongoDB-wire server, and a claim is never removed, so no
 * number is given twice, even once its record is deleted. The `counters` document per noun
 * (`findOneAndUpdate` + `$inc`) only says where to try first: MongoDB applies it atomically, while
 * FerretDB 1.x may lose concurrent increments (its SQLite handler updates outside a transaction),
 * which then costs a few tries, never a duplicate.
 *
 * Documents an older Tally wrote without a number get one at start-up, oldest first (ties within a
 * millisecond in `_id` order: MongoDB keeps no insert order). Two instances starting at once may
 * both number one: each number is claimed, and the last one set stands.
 */
import type { Collection } from 'mongodb';
import { checkNumber, type NumberedNoun } from '../numbers.js';
import type { Collections } from './connection.js';

/** The server refused a write for a value a unique index already holds. */
export function isDuplicateKey(e: unknown): boolean {
  return (e as { code?: unknown }).code === 11000;
}

/** Runs an upsert again when two first upserts raced and the loser hit the unique `_id`. */
async function upserting<T>(write: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (e) {
      if (attempt >= 3 || !isDuplicateKey(e)) throw e;
    }
  }
}

/** Claims a chosen number; false when it was claimed before (given or chosen earlier). */
export async function claimNumber(c: Collections, noun: NumberedNoun, n: number): Promise<boolean> {
  try {
    await c.numbers.insertOne({ _id: `${noun}:${n}` });
    return true;
  } catch (e) {
    if (isDuplicateKey(e)) return false;
    throw e;
  }
}

/** The next number of the noun never given nor chosen, claimed: unique across every instance. */
export async function nextNumber(c: Collections, noun: NumberedNoun): Promise<number> {
  const counted = await upserting(() =>
    c.counters.findOneAndUpdate({ _id: noun }, { $inc: { value: 1 } }, { upsert: true, returnDocument: 'after' }),
  );
  let n = counted!.value;
  while (!(await claimNumber(c, noun, checkNumber(noun, n)))) n++;
  // Stepped over claims (chosen numbers, lost increments): move the counter past them.
  if (n > counted!.value) await c.counters.updateOne({ _id: noun }, { $max: { value: n } });
  return n;
}

/** At open: every profile and report has a number. */
export async function numberExisting(c: Collections): Promise<void> {
  await numberCollection(c, c.profiles as unknown as Collection<NumberedDoc>, 'profile');
  await numberCollection(c, c.reports as unknown as Collection<NumberedDoc>, 'report');
}

interface NumberedDoc {
  _id: string;
  number?: number;
  createdAt: string;
}

/** Unnumbered documents are read a page at a time, oldest first, each page before any is numbered. */
const PAGE = 1_000;

async function numberCollection(c: Collections, docs: Collection<NumberedDoc>, noun: NumberedNoun): Promise<void> {
  for (;;) {
    // A page, then its writes: no cursor stays open (and may time out) across a long numbering, and on
    // FerretDB the writes ran a third faster than beside an open cursor (1,000 reports: 56 s, not 86 s).
    const page = await docs
      .find({ number: { $exists: false } }, { projection: { _id: 1, createdAt: 1 }, allowDiskUse: true })
      .sort({ createdAt: 1, _id: 1 })
      .limit(PAGE)
      .toArray();
    for (const doc of page) {
      const number = await nextNumber(c, noun);
      // Numbered meanwhile by another instance: its number stands, this one stays unused.
      await docs.updateOne({ _id: doc._id, number: { $exists: false } }, { $set: { number } });
    }
    if (page.length < PAGE) return;
  }
}
