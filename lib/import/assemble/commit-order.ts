/**
 * The order files are committed in: the order they came, whatever order their heads (or their
 * parses, on other threads) finish in. A file takes its place as it arrives, before any await, and
 * is committed once every file before it has been; one that failed still hands the turn on, and the
 * file after it learns of the failure from the import, not from the turn.
 */
export class CommitOrder {
  private last: Promise<unknown> = Promise.resolve();

  /** Takes the next place now; `commit` runs when the turn comes, and its result is returned. */
  next<T>(commit: () => Promise<T>): Promise<T> {
    const mine = this.last.then(commit);
    this.last = mine.catch(() => undefined);
    return mine;
  }
}
