/**
 * The two facts of a report every container document copies (for the history-of-a-title index):
 * its profile and creation time. They never change after the report is created, so cached copies
 * cannot go stale; a report created by another Tally instance is looked up once.
 */
import type { MongoConnection } from './connection.js';

export interface ReportFacts {
  profileId: string;
  createdAt: string;
}

/** Reports remembered; a batch run touches one report at a time. */
const REPORT_CACHE_SIZE = 256;

export class ReportFactsCache {
  readonly #facts = new Map<string, ReportFacts>();

  constructor(private readonly conn: MongoConnection) {}

  async of(reportId: string): Promise<ReportFacts> {
    const cached = this.#facts.get(reportId);
    if (cached) return cached;
    const doc = await this.conn.c.reports.findOne({ _id: reportId }, { projection: { profileId: 1, createdAt: 1 } });
    if (!doc)
      throw new Error(
        `containers.insert: there is no report ${JSON.stringify(reportId)}; create the report before its containers.`,
      );
    const facts = { profileId: doc.profileId, createdAt: doc.createdAt };
    this.remember(reportId, facts);
    return facts;
  }

  remember(reportId: string, facts: ReportFacts): void {
    this.#facts.set(reportId, facts);
    // Map order is insertion order: dropping the first key drops the oldest entry.
    if (this.#facts.size > REPORT_CACHE_SIZE) this.#facts.delete(this.#facts.keys().next().value!);
  }

  clear(): void {
    this.#facts.clear();
  }
}
