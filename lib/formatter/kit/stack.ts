/**
 * The open elements of a formatter's state machine (XML elements, JSON suites): each handler
 * pushes a frame when something opens and pops it when it closes, and reads the innermost one.
 */
import type { TextBuffer } from './text.js';

export class Stack<F> {
  private readonly items: F[] = [];

  push(item: F): void {
    this.items.push(item);
  }

  pop(): F | undefined {
    return this.items.pop();
  }

  /** The innermost open item. */
  get top(): F | undefined {
    return this.items[this.items.length - 1];
  }

  /** How many are open: 0 once the root has closed. */
  get depth(): number {
    return this.items.length;
  }

  /** The innermost item `match` accepts, looking outwards from the top. */
  find<G extends F>(match: (item: F) => item is G): G | undefined;
  find(match: (item: F) => boolean): F | undefined;
  find(match: (item: F) => boolean): F | undefined {
    for (let i = this.items.length - 1; i >= 0; i--) if (match(this.items[i]!)) return this.items[i];
    return undefined;
  }
}

/**
 * An XML handler's stack of frames, one per open element. `outside` is the frame for an element
 * with no frame around it (one after the root closed, which is read past); a frame
 * `{ kind: 'text', buffer }` collects the element's text.
 */
export class ElementStack<F extends { kind: string }> extends Stack<F> {
  constructor(private readonly outside: F) {
    super();
  }

  /** An element opened: push the frame `child` makes of the innermost one. */
  open(child: (top: F) => F): void {
    const top = this.top;
    this.push(top ? child(top) : this.outside);
  }

  /** Text arrived: the innermost frame keeps it when it is a text frame. */
  text(text: string): void {
    const top = this.top as { kind: string; buffer?: TextBuffer } | undefined;
    if (top?.kind === 'text') top.buffer?.append(text);
  }
}
