/**
 * The first significant character of a file, for a formatter that reads more than one kind of file
 * (JSON or XML, JSON or console text) and must choose before it parses. Chunks of whitespace before
 * it are dropped (no format here needs them); the chunk holding it is replayed, so `rest` is the
 * whole input from that character on.
 */
export async function peekFirst(
  input: AsyncIterable<string>,
): Promise<{ first: string | null; rest: AsyncIterable<string> }> {
  const it = input[Symbol.asyncIterator]();
  for (;;) {
    const r = await it.next();
    if (r.done) return { first: null, rest: (async function* () {})() };
    const m = /\S/.exec(r.value);
    if (!m) continue;
    const head = r.value.slice(m.index);
    const rest = (async function* () {
      yield head;
      for (let n = await it.next(); !n.done; n = await it.next()) yield n.value;
    })();
    return { first: m[0], rest };
  }
}
