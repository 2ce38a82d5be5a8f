/**
 * A pure function's results kept by input in a Map that is emptied when full: the inputs it is
 * used for (template names, texts, instants) repeat in runs, so emptying keeps what the next
 * calls repeat at the cost of one Map, without the bookkeeping of least-recently-used order.
 */
export function boundedMemo<K, V>(compute: (input: K) => V, maxEntries: number): (input: K) => V {
  const kept = new Map<K, V>();
  return (input) => {
    const known = kept.get(input);
    if (known !== undefined || kept.has(input)) return known as V;
    if (kept.size >= maxEntries) kept.clear();
    const value = compute(input);
    kept.set(input, value);
    return value;
  };
}
