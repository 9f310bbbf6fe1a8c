// Property: any request to any registered route — wrong types, huge or deeply nested JSON, bad
// multipart, bytes that are not UTF-8, odd headers, path tricks — gets an answer below 500,
// a client-API error is `{"error": "…"}` JSON, the server stays up, and a rejected request
// leaves every record file as it was. `npm run test:fuzz` runs it longer with a random seed.

import { after, before, describe, it } from "node:test";
import fc from "fast-check";
import { requestArb } from "./arbitraries.ts";
import { assertHandledSafely, type FuzzTarget, startFuzzTarget } from "./harness.ts";
import { checkProperty } from "./settings.ts";

describe("fuzzed client API and web routes", () => {
  let target: FuzzTarget;
  before(async () => {
    target = await startFuzzTarget();
  });
  after(() => target.close());

  it("never answers 5xx, keeps error bodies well formed and changes nothing when refusing", async () => {
    const { url, dataDir } = target.server;
    const tokens = { alice: target.alice.token, bob: target.bob.token };
    const requests = requestArb(target.routes, target.ids, tokens);
    await checkProperty(
      fc.asyncProperty(requests, (req) => assertHandledSafely(url, dataDir, req)),
      150,
    );
  });
});
