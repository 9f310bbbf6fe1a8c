// Stored records are handed to readers deeply frozen (both backends), so a reader can be given
// the record itself: copying every record read (timelines read dozens per request) was the
// largest cost of a read, and a frozen record makes an accidental mutation by a caller throw
// instead of corrupting what the store keeps.

export function deepFreeze<V>(value: V): V {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
