// blockCandidates keeps what it worked out per host (hosts.ts): later callers must get the
// same answer whatever an earlier caller did with its copy.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { blockCandidates } from "./hosts.ts";

describe("blockCandidates, kept per host", () => {
  it("answers a host asked again as the first time, and its answer cannot be changed", () => {
    const first = blockCandidates("Inbox.Peer.Example:8443");
    assert.deepEqual(first, [
      "inbox.peer.example:8443",
      "inbox.peer.example",
      "peer.example:8443",
      "peer.example",
    ]);
    assert.throws(() => (first as string[]).push("evil.example"), TypeError);
    assert.deepEqual(blockCandidates("Inbox.Peer.Example:8443"), first);
    assert.deepEqual(blockCandidates("not a host"), []);
    assert.deepEqual(blockCandidates("not a host"), []);
  });
});
