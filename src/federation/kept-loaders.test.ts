// keepLoaders: Fedify's contexts share their loaders instead of building new ones each (with
// private addresses allowed, Fedify's own cached loaders, as in the tests and benchmarks).

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createFederation, MemoryKvStore } from "@fedify/fedify";
import type { DocumentLoader } from "@fedify/vocab-runtime";
import { keepLoaders, markingBundledStatic } from "./kept-loaders.ts";

const AS = "https://www.w3.org/ns/activitystreams";

function federation() {
  const fed = createFederation<void>({
    kv: new MemoryKvStore(),
    allowPrivateAddress: true,
    userAgent: { software: "Wren" },
  });
  keepLoaders(fed);
  return fed;
}

describe("keepLoaders", () => {
  it("gives every context of one origin the same document and context loaders", async () => {
    const fed = federation();
    const a = fed.createContext(new URL("http://wren.test/"), undefined);
    const b = fed.createContext(new URL("http://wren.test/users/alice"), undefined);
    assert.equal(a.documentLoader, b.documentLoader);
    assert.equal(a.contextLoader, b.contextLoader);
    // Still Fedify's loader: the ActivityStreams context comes from its preloaded copy.
    const loaded = await a.contextLoader(AS);
    assert.equal(loaded.documentUrl, AS);
    assert.ok(loaded.document);
  });

  it("marks the contexts Fedify bundles static for jsonld's shared cache, and only those", async () => {
    const context = federation().createContext(new URL("http://wren.test/"), undefined);
    const bundled = (await context.contextLoader(AS)) as { tag?: string };
    assert.equal(bundled.tag, "static");
    const served: DocumentLoader = async (url) => ({
      contextUrl: null,
      documentUrl: url,
      document: { "@context": { name: "https://example.test/name" } },
    });
    // A bundled URL answered with another document (not Fedify's copy) is not marked either.
    for (const url of [AS, "https://example.test/context"]) {
      const fetched = (await markingBundledStatic(served)(url)) as { tag?: string };
      assert.equal(fetched.tag, undefined);
    }
  });

  it("keeps loaders apart when their options differ (the User-Agent names the origin)", () => {
    const fed = federation();
    const a = fed.createContext(new URL("http://wren.test/"), undefined);
    const b = fed.createContext(new URL("http://other.test/"), undefined);
    assert.notEqual(a.documentLoader, b.documentLoader);
    assert.notEqual(a.contextLoader, b.contextLoader);
  });
});
