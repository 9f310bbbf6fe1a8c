// The admin socket: a Unix domain socket in the data directory through which the `wren` command
// asks a running server to act (create an account, reset a password, issue a token). The server
// is the only writer of its data directory, so a command never opens the storage beside it
// (docs/adr/0002-admin-socket.md). Access is the file's: mode 0600, the server's own user.

import { chmodSync, lstatSync, unlinkSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { getLogger } from "@logtape/logtape";
import { AppError } from "../domain/errors.ts";
import type { ServiceContext } from "../services/context.ts";
import { runAdminOperation } from "./operations.ts";
import { type AdminResponse, MAX_MESSAGE_BYTES } from "./protocol.ts";

const logger = getLogger(["wren", "admin"]);

/** A client that connects and then says nothing is dropped after this long. */
const REQUEST_TIMEOUT_MS = 10_000;

export interface AdminSocket {
  readonly path: string;
  /** Stops accepting, lets running operations finish, removes the socket file. */
  close(): Promise<void>;
}

/** sun_path holds 104 bytes on macOS and 108 on Linux, the terminating NUL included. */
const MAX_SOCKET_PATH_BYTES = 103;

export async function startAdminSocket(ctx: ServiceContext, path: string): Promise<AdminSocket> {
  const length = Buffer.byteLength(path);
  if (length > MAX_SOCKET_PATH_BYTES) {
    throw new Error(
      `The admin socket path ${path} is too long for a Unix socket (${length} bytes, at most ` +
        `${MAX_SOCKET_PATH_BYTES}): use a data directory with a shorter path (WREN_DATA_DIR)`,
    );
  }
  removeStaleSocket(path);
  const running = new Set<Promise<void>>();
  // Connections that have not sent their request yet; close() drops them.
  const waiting = new Set<Socket>();
  const server = createServer((socket) => {
    waiting.add(socket);
    // A client that goes away mid-answer (EPIPE, ECONNRESET) is no error of ours; "close" follows.
    socket.on("error", () => {});
    socket.once("close", () => waiting.delete(socket));
    const work = serveConnection(ctx, socket, () => waiting.delete(socket));
    running.add(work);
    void work.finally(() => running.delete(work));
  });
  await listenPrivately(server, path);
  logger.debug("Admin socket listening on {path}", { path });

  let closing: Promise<void> | undefined;
  return {
    path,
    close() {
      closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        // Connections that have not sent a request yet are dropped; operations already running
        // finish, and their clients get the answer.
        for (const socket of waiting) socket.destroy();
        await Promise.allSettled([...running]);
        await stopped;
        removeSocketFile(path);
      })();
      return closing;
    },
  };
}

/**
 * A socket file left by a crashed server would make listen() fail with EADDRINUSE. Our caller
 * holds the data directory's lock, so no live server owns it: remove it. Anything that is not a
 * socket is left alone and reported.
 */
function removeStaleSocket(path: string): void {
  let stats: ReturnType<typeof lstatSync>;
  try {
    stats = lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  if (!stats.isSocket()) {
    throw new Error(
      `${path} exists and is not a socket; move it away so the admin socket can start`,
    );
  }
  unlinkSync(path);
}

function removeSocketFile(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}

/**
 * Binds with a umask that leaves the socket readable and writable by its owner only, so there is
 * no moment in which another local user could connect; chmod afterwards makes sure of it.
 * (listen() on a path binds synchronously, so the umask is narrowed only for that call.)
 */
async function listenPrivately(server: Server, path: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    let previous: number | undefined;
    try {
      previous = process.umask(0o177);
    } catch {
      // Worker threads cannot change the umask; the chmod below still applies.
    }
    try {
      server.listen(path, () => {
        server.off("error", reject);
        resolve();
      });
    } finally {
      if (previous !== undefined) process.umask(previous);
    }
  });
  chmodSync(path, 0o600);
}

async function serveConnection(
  ctx: ServiceContext,
  socket: Socket,
  started: () => void,
): Promise<void> {
  const line = await readRequestLine(socket);
  if (line === null) return;
  started();
  socket.setTimeout(0);
  const response = await answer(ctx, line);
  await new Promise<void>((resolve) => {
    if (socket.destroyed) return resolve();
    socket.end(`${JSON.stringify(response)}\n`, () => resolve());
    socket.once("close", () => resolve());
  });
}

/** The first line the client sends, or null if it sent none (it gave up, or was too slow). */
function readRequestLine(socket: Socket): Promise<string | Error | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (value: string | Error | null) => {
      socket.off("data", onData);
      socket.off("end", onEnd);
      socket.off("close", onClose);
      resolve(value);
    };
    const onData = (chunk: Buffer) => {
      const newline = chunk.indexOf(0x0a);
      const part = newline === -1 ? chunk : chunk.subarray(0, newline);
      size += part.length;
      if (size > MAX_MESSAGE_BYTES) {
        return finish(new AppError(413, `Request larger than ${MAX_MESSAGE_BYTES} bytes`));
      }
      chunks.push(part);
      if (newline !== -1) finish(Buffer.concat(chunks).toString("utf8"));
    };
    // A client that closes its side without a newline still sent one complete request.
    const onEnd = () => finish(size > 0 ? Buffer.concat(chunks).toString("utf8") : null);
    const onClose = () => finish(null);
    socket.on("data", onData);
    socket.on("end", onEnd);
    socket.on("close", onClose);
    socket.setTimeout(REQUEST_TIMEOUT_MS, () => {
      socket.destroy();
      finish(null);
    });
  });
}

async function answer(ctx: ServiceContext, line: string | Error): Promise<AdminResponse> {
  try {
    if (line instanceof Error) throw line;
    let request: unknown;
    try {
      request = JSON.parse(line);
    } catch {
      throw new AppError(400, "The request is not valid JSON");
    }
    if (
      typeof request !== "object" ||
      request === null ||
      typeof (request as { op?: unknown }).op !== "string"
    ) {
      throw new AppError(400, 'The request must be an object with an "op" string');
    }
    const { op, args } = request as { op: string; args?: unknown };
    logger.info("Admin operation {op}", { op });
    return { result: await runAdminOperation(ctx, op, args) };
  } catch (error) {
    if (error instanceof AppError) return { error: error.message, status: error.status };
    logger.error("Admin operation failed: {error}", { error });
    // Only the data directory's owner can reach this socket: the message helps them and
    // exposes nothing they could not read themselves.
    return { error: `Internal error: ${(error as Error).message}`, status: 500 };
  }
}
