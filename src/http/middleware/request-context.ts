// Gives every request an id (kept from a trusted proxy's X-Request-Id when it looks sane) and
// writes one structured log line per request when it finishes.

import { randomUUID } from "node:crypto";
import { getLogger } from "@logtape/logtape";
import type { MiddlewareHandler } from "hono";
import type { HttpEnv } from "../env.ts";
import { setResponseHeaders } from "./response-headers.ts";

const logger = getLogger(["wren", "http", "request"]);
const SANE_ID = /^[A-Za-z0-9._-]{8,128}$/;

export const requestContext: MiddlewareHandler<HttpEnv> = async (c, next) => {
  const incoming = c.req.header("x-request-id");
  const requestId = incoming && SANE_ID.test(incoming) ? incoming : randomUUID();
  c.set("requestId", requestId);
  c.set("viewer", null);
  const started = performance.now();
  await next();
  setResponseHeaders(c, { "X-Request-Id": requestId });
  // Building the line's properties is a few percent of a small read: skipped when not logged.
  if (!logger.isEnabledFor("info")) return;
  logger.info("{method} {path} {status} {ms}ms", {
    requestId,
    method: c.req.method,
    path: c.req.path,
    status: c.res.status,
    ms: Math.round((performance.now() - started) * 10) / 10,
  });
};
