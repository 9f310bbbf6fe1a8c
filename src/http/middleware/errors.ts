// The one error mapper: every failure becomes Mastodon's `{"error": …}` body with the right
// status. Unexpected errors are logged with the request id and answered as a bare 500, never
// with a stack trace.

import { getLogger } from "@logtape/logtape";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { AppError } from "../../domain/errors.ts";
import type { HttpEnv } from "../env.ts";

const logger = getLogger(["wren", "http"]);

export function errorBody(error: string, description?: string, extra?: Record<string, unknown>) {
  return { error, ...(description ? { error_description: description } : {}), ...extra };
}

export function handleError(err: unknown, c: Context<HttpEnv>): Response {
  if (err instanceof AppError) {
    return c.json(
      errorBody(err.message, err.description, err.extra),
      err.status as ContentfulStatusCode,
    );
  }
  if (err instanceof HTTPException) {
    const status = err.status as ContentfulStatusCode;
    const message = status === 413 ? "Request entity too large" : err.message || "Bad request";
    return c.json(errorBody(message), status);
  }
  logger.error("Unhandled error on {method} {path} ({requestId}): {error}", {
    method: c.req.method,
    path: c.req.path,
    requestId: c.get("requestId"),
    error: err,
  });
  return c.json(errorBody("Internal server error"), 500);
}

export function handleNotFound(c: Context<HttpEnv>): Response {
  return c.json(errorBody("Record not found"), 404);
}
