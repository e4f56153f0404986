/**
 * The producer of a format that several tools write: the first sign of one (a root attribute, a
 * property, a file name) names it, and later signs are read past, so a file sets it at most once.
 */
import type { ParseContext } from '../types.js';

/** `guess(name)` sets the producer unless one is set already; null is no sign. */
export function firstProducer(ctx: Pick<ParseContext, 'setProducer'>): (name: string | null) => void {
  let producer: string | null = null;
  return (name) => {
    if (producer !== null || name === null) return;
    producer = name;
    ctx.setProducer(name);
  };
}
