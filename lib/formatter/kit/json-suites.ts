/**
 * The open suites of a JSON report whose suites nest in `suites[]` (mochawesome, Playwright). A
 * suite is known by the length of its object's path: its own keys are one deeper, and it closes
 * when that object does. Only the open suites are kept, never the tree.
 */
import type { JsonPath } from './json.js';
import { Stack } from './stack.js';

/** What every open suite holds; a format adds its own fields. */
export interface JsonSuite {
  id: number;
  parentId: number | null;
  /** Length of the suite object's path: its own keys are one deeper. */
  depth: number;
  /** Its own `title`; '' until read (a spec file's root suite has none). */
  title: string;
  /** Its own `file`, unless empty. */
  file: string | null;
}

export class JsonSuiteStack<S extends JsonSuite> extends Stack<S> {
  /** `path` is `suites[n]` of the innermost suite (of the root when none is open). */
  isChildSuite(path: JsonPath): boolean {
    const base = this.top?.depth ?? 0;
    return path.length === base + 2 && path[base] === 'suites' && typeof path[base + 1] === 'number';
  }

  /** A suite's object opens at `path`, inside the innermost suite; `own` holds the format's fields. */
  open(path: JsonPath, id: number, own: Omit<S, keyof JsonSuite>): void {
    this.push({ id, parentId: this.top?.id ?? null, depth: path.length, title: '', file: null, ...own } as S);
  }

  /**
   * A scalar at `path`. The innermost suite's `title` and `file` are read here; another key of its
   * own is returned for the format to read, and a path deeper or elsewhere gives undefined.
   */
  ownKey(path: JsonPath, v: unknown): string | number | undefined {
    const top = this.top;
    if (!top || path.length !== top.depth + 1) return undefined;
    const key = path[top.depth];
    if (key === 'title') {
      if (typeof v === 'string') top.title = v;
    } else if (key === 'file') {
      if (typeof v === 'string' && v !== '') top.file = v;
    } else return key;
    return undefined;
  }

  /** The object or array at `path` ends: true when it is the innermost suite's object. */
  closes(path: JsonPath, kind: 'object' | 'array'): boolean {
    const top = this.top;
    return top !== undefined && kind === 'object' && path.length === top.depth;
  }
}
