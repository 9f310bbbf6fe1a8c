import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { attributeSamples, codeOwner } from "../../bench/lib/perf-stacks.ts";

// Five samples as `perf script -F ip,sym` prints them (frames innermost first, a blank line between).
const SCRIPT = `
	    7f00 Builtins_LoadIC
	    7f01 JS:*'loadStatusViews file:///srv/wren/src/views/status-view.ts:185:38
	    7f02 JS:*'answer file:///srv/wren/src/http/mastodon/v1/timelines.ts:42:9

	    7f10 writev
	    7f11 JS:*'writevGeneric node:internal/stream_base_commons:121:23
	    7f12 JS:*'loadStatusViews file:///srv/wren/src/views/status-view.ts:185:38

	    7f20 v8::internal::ScavengerCollector::CollectGarbage
	    7f21 v8::internal::Heap::Scavenge

	    7f30 JS:*'_expandObject /srv/wren/node_modules/jsonld/dist/jsonld.esm.js:4104:29

	ffffffff8225fd19 pvm_irq_enable
	ffffffff81000123 net_rx_action
`;

describe("perf sample attribution", () => {
  it("charges each sample to its innermost JavaScript frame's owner, or names the native work", () => {
    const shares = new Map(attributeSamples(SCRIPT).map((r) => [r.owner, r.share]));
    assert.deepEqual([...shares.keys()].sort(), [
      "(garbage collection)",
      "(kernel)",
      "jsonld",
      "node:internal/stream_base_commons",
      "wren views/status-view.ts",
    ]);
    assert.equal(shares.get("wren views/status-view.ts"), 0.2);
    assert.equal(shares.get("node:internal/stream_base_commons"), 0.2);
  });

  it("tells packages, scoped packages, Node internals and Wren's files apart", () => {
    assert.equal(
      codeOwner("JS:*'x file:///a/node_modules/@fedify/vocab/dist/mod.js:1:1"),
      "@fedify/vocab",
    );
    assert.equal(codeOwner("JS:*'x file:///a/node_modules/hono/dist/compose.js:24:26"), "hono");
    assert.equal(codeOwner("JS:*'end node:_http_outgoing:1143:45"), "node:_http_outgoing");
    assert.equal(codeOwner("JS:*'f file:///a/src/http/app.ts:10:3"), "wren http/app.ts");
  });
});
