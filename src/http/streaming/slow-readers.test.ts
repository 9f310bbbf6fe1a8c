// A streaming connection whose reader does not keep up is dropped once more than
// MAX_BUFFERED_BYTES wait to be sent, instead of being buffered for without bound.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { WebSocket } from "ws";
import { MAX_BUFFERED_BYTES } from "./client.ts";
import { EventStreamClient } from "./sse.ts";
import { WebSocketClient } from "./websocket.ts";

const viewer = { accountId: "1", tokenId: "2", scopes: ["read"] };
const spec = { name: "public" as const };
const payload = JSON.stringify({ id: "1", content: "x".repeat(64 * 1024) });

describe("slow streaming readers", () => {
  it("terminates a WebSocket whose unsent bytes pass the bound, and sends it nothing more", () => {
    let sent = 0;
    let terminated = false;
    // A fake socket, named as such: filling 4 MiB behind a real stalled reader takes thousands
    // of posts. It keeps what ws reports, the bytes not yet handed to the network.
    const fakeSocket = {
      OPEN: 1,
      readyState: 1,
      bufferedAmount: 0,
      on() {},
      send(data: Buffer) {
        sent += 1;
        this.bufferedAmount += data.length;
      },
      terminate() {
        terminated = true;
        this.readyState = 3;
      },
    };
    const client = new WebSocketClient(viewer, fakeSocket as unknown as WebSocket);
    while (!terminated) client.send(spec, "update", payload);
    // Sent while under the bound; the one that found it passed was not sent.
    assert.ok(fakeSocket.bufferedAmount > MAX_BUFFERED_BYTES);
    assert.ok(sent > 1);
    const before = sent;
    client.send(spec, "update", payload);
    assert.equal(sent, before, "nothing more is sent to a terminated socket");
  });

  it("ends a server-sent events stream nobody reads once the bound is passed", async () => {
    const client = new EventStreamClient(viewer, spec);
    let ended = false;
    client.onEnd = () => {
      ended = true;
    };
    let events = 0;
    while (!ended && events < 1000) {
      client.send(spec, "update", payload);
      events += 1;
    }
    assert.ok(ended, "the stream was dropped");
    assert.ok(events * payload.length > MAX_BUFFERED_BYTES);
    const reader = client.body.getReader();
    await assert.rejects(async () => {
      for (;;) if ((await reader.read()).done) break;
    }, /reads too slowly/);
  });
});
