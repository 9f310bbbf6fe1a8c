// A node:test reporter for test/shards.ts: one JSON line per top-level test or suite, with its
// file and duration, so that `npm test` can name the slowest files.

interface TestEvent {
  type: string;
  data: { nesting?: number; file?: string; details?: { duration_ms?: number } };
}

export default async function* timingReporter(
  source: AsyncIterable<TestEvent>,
): AsyncGenerator<string> {
  for await (const event of source) {
    if (event.type !== "test:pass" && event.type !== "test:fail") continue;
    const { nesting, file, details } = event.data;
    if (nesting !== 0 || !file) continue;
    yield `${JSON.stringify({ file, ms: details?.duration_ms ?? 0 })}\n`;
  }
}
