// The client side of the admin socket, used by the `wren` command when a server is running.
// Connection failures (ENOENT, ECONNREFUSED) are thrown as they are, so the caller can decide to
// wait for a starting server; refusals from the server become AdminError.

import { connect } from "node:net";
import { AdminError, type AdminResponse, MAX_RESPONSE_BYTES } from "./protocol.ts";

export interface CallOptions {
  /** Gives up if the whole exchange takes longer (default 60 s: hashing a password takes time). */
  timeoutMs?: number;
}

export function callAdmin(
  path: string,
  op: string,
  args: Record<string, unknown> = {},
  options: CallOptions = {},
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const socket = connect(path);
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (error: Error | null, value?: unknown) => {
      if (settled) return;
      settled = true;
      socket.destroy();
      if (error) reject(error);
      else resolve(value);
    };

    socket.setTimeout(options.timeoutMs ?? 60_000, () =>
      settle(new Error(`The server did not answer on ${path} in time`)),
    );
    socket.on("error", (error) => settle(error));
    socket.once("connect", () => socket.write(`${JSON.stringify({ op, args })}\n`));
    socket.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_RESPONSE_BYTES) {
        settle(
          new Error(`The server's answer on ${path} is larger than ${MAX_RESPONSE_BYTES} bytes`),
        );
        return;
      }
      chunks.push(chunk);
    });
    socket.once("end", () => {
      const text = Buffer.concat(chunks).toString("utf8").trim();
      let response: AdminResponse;
      try {
        response = JSON.parse(text) as AdminResponse;
      } catch {
        settle(new Error(`The server closed ${path} without a valid answer`));
        return;
      }
      if ("error" in response) settle(new AdminError(response.error, response.status));
      else settle(null, response.result);
    });
  });
}
