// Fedify's circuit breaker over Wren's key–value store on real json-file storage: it writes its
// state with the keys in one order and reads it back in another, so a compare-and-set that
// compared JSON text never let a successful probe close the circuit (issue 15, item 0).

import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { CircuitBreaker } from "@fedify/fedify";
import { Temporal } from "@js-temporal/polyfill";
import { systemClock } from "../domain/clock.ts";
import { openJsonFileStorage } from "../storage/json-file/index.ts";
import type { Storage } from "../storage/ports.ts";
import { createFedifyKv } from "./kv.ts";

describe("Fedify's circuit breaker over Wren's key-value store", () => {
  let dir: string;
  let storage: Storage;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "wren-kv-circuit-"));
    storage = await openJsonFileStorage(dir);
  });
  after(async () => {
    await storage.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("closes again after a successful probe, so held deliveries go out", async () => {
    let now = Temporal.Instant.from("2026-01-01T00:00:00Z");
    const breaker = new CircuitBreaker({
      kv: createFedifyKv(storage.kv, systemClock),
      prefix: ["_fedify", "circuit"],
      options: { failureThreshold: 2, recoveryDelay: { minutes: 1 } },
      now: () => now,
    });
    await breaker.recordFailure("peer.example");
    assert.equal((await breaker.recordFailure("peer.example"))?.newState, "open");
    assert.equal((await breaker.beforeSend("peer.example", {})).type, "hold");

    now = now.add({ minutes: 2 });
    assert.deepEqual(await breaker.beforeSend("peer.example", {}), {
      type: "send",
      probe: true,
      stateChange: { previousState: "open", newState: "half-open" },
    });
    // The probe was delivered: recording it must succeed and close the circuit.
    assert.deepEqual(await breaker.recordSuccess("peer.example"), {
      previousState: "half-open",
      newState: "closed",
    });
    assert.equal(await breaker.getState("peer.example"), undefined);
    assert.deepEqual(await breaker.beforeSend("peer.example", {}), { type: "send", probe: false });
  });
});
