// Equality of JSON values as values, not as text: objects are equal when they have the same
// keys with equal values, in any order; arrays when they hold equal items in the same order.
// Compare-and-set needs this: a caller (Fedify's circuit breaker) may read an object back and
// rebuild it with its keys in another order than the one it wrote, and text comparison then
// refused every update of that record.

export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => jsonEqual(item, b[i]));
  }
  // Keys whose value is undefined are absent in JSON: they are skipped on both sides.
  const keysOf = (o: object) =>
    Object.entries(o).filter(([, v]) => v !== undefined) as [string, unknown][];
  const left = keysOf(a);
  const right = new Map(keysOf(b));
  if (left.length !== right.size) return false;
  return left.every(([key, value]) => right.has(key) && jsonEqual(value, right.get(key)));
}
