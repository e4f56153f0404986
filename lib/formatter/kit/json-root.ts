/**
 * The root of a JSON report that is one object (CTRF, Jest, Mocha, mochawesome, Playwright). A file
 * whose root is an array, or that holds no object at all, is refused in the same words by each,
 * inside the format's own sentence (`refuse`), which says what to send instead.
 */
import type { FormatError } from './errors.js';
import type { JsonPath } from './json.js';

export class JsonObjectRoot {
  private seen = false;

  constructor(private readonly refuse: (why: string) => FormatError) {}

  /** `parseJson`'s `open`: true when `path` is the root, which must be an object. */
  opens(path: JsonPath, kind: 'object' | 'array'): boolean {
    if (path.length > 0) return false;
    if (kind !== 'object') throw this.refuse('the file holds a JSON array, not an object');
    this.seen = true;
    return true;
  }

  /** After the last event: a file of only a scalar, or of nothing, never opened a root. */
  end(): void {
    if (!this.seen) throw this.refuse('the file holds no JSON object');
  }
}
