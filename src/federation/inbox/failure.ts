// A POST to an inbox that Fedify could not process because of what was sent (a JSON-LD
// context that cannot be loaded, a document its parser chokes on) must not answer 500: inbox
// input is hostile, and a 5xx invites the sender to send it again and again. Such a failure is
// answered 400; a failure anywhere else is rethrown to the HTTP layer's error handler.

import { getLogger } from "@logtape/logtape";
import { routePath } from "../route-path.ts";

const logger = getLogger(["wren", "federation", "inbox"]);

export const INBOX_PATH = /^\/(?:users\/[^/]+\/)?inbox$/;

export function answerInboxFailure(request: Request, error: unknown): Response {
  if (request.method !== "POST" || !INBOX_PATH.test(routePath(request))) throw error;
  logger.info("Refused an inbox POST that could not be processed: {error}", { error });
  return new Response("Invalid activity.", {
    status: 400,
    headers: { "content-type": "text/plain; charset=utf-8" },
  });
}
