// Storage contract: the broadcast of streaming signals. A published signal reaches every
// subscriber, of this storage and of another process on the same data (PostgreSQL), in the
// order published; an unsubscribed listener hears nothing more.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { StreamSignal } from "../../domain/stream-signal.ts";
import type { ContractContext } from "./context.ts";

/** Waits for `done`, at most a few seconds: a bound against hanging, not an expectation. */
async function until(done: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!done()) {
    if (Date.now() > deadline) assert.fail(`${what} never happened`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export function broadcastContract(t: ContractContext): void {
  describe("broadcast", () => {
    it("delivers signals to every subscriber, a peer's too, in order, until unsubscribed", async () => {
      const { storage } = t;
      const peer = await t.peer();
      const heard: StreamSignal[] = [];
      const heardByPeer: StreamSignal[] = [];
      const stop = storage.broadcast.subscribe((signal) => heard.push(signal));
      const stopPeer = peer.broadcast.subscribe((signal) => heardByPeer.push(signal));
      await Promise.all([storage.broadcast.listening(), peer.broadcast.listening()]);

      const signals: StreamSignal[] = [
        { kind: "status", event: "update", statusId: "10" },
        { kind: "notification", accountId: "1", notificationId: "20" },
        { kind: "announcement.reaction", announcementId: "30", name: "👍" },
      ];
      for (const signal of signals) await storage.broadcast.publish(signal);
      await until(() => heard.length === 3 && heardByPeer.length === 3, "delivery");
      assert.deepEqual(heard, signals);
      assert.deepEqual(heardByPeer, signals);

      stop();
      const later: StreamSignal[] = [];
      const stopLater = storage.broadcast.subscribe((signal) => later.push(signal));
      await storage.broadcast.listening();
      await peer.broadcast.publish({ kind: "delete", statusId: "10" });
      await until(() => later.length === 1 && heardByPeer.length === 4, "the second delivery");
      assert.equal(heard.length, 3, "an unsubscribed listener hears nothing more");
      assert.deepEqual(later, [{ kind: "delete", statusId: "10" }]);
      stopLater();
      stopPeer();
    });
  });
}
