// Inbox bodies nested deeper than any real activity are refused before Fedify parses them:
// JSON-LD expansion recurses once per level, so a few thousand levels overflow its stack (a
// wasted job at best, V8 "Exception in PromiseRejectCallback" noise at worst). Real activities
// from Mastodon, Misskey and others nest fewer than 20 levels.

import { routePath } from "../route-path.ts";
import { INBOX_PATH } from "./failure.ts";

export const MAX_INBOX_NESTING = 64;

/** How deep arrays and objects nest in a JSON text (strings skipped); stops past `limit`. */
export function jsonNesting(text: string, limit: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > limit) return deepest;
      }
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return deepest;
}

/** A 400 for an inbox POST nested too deeply; null for every other request. */
export async function refuseDeepInboxBody(request: Request): Promise<Response | null> {
  if (request.method !== "POST" || !INBOX_PATH.test(routePath(request))) return null;
  // The body limit of the HTTP layer has already bounded the size; the original stays unread.
  return refuseDeepText(await request.clone().text());
}

/** A 400 for an inbox body (its text) nested too deeply; null otherwise. */
export function refuseDeepText(text: string): Response | null {
  if (jsonNesting(text, MAX_INBOX_NESTING) <= MAX_INBOX_NESTING) return null;
  return new Response("Activity nested too deeply.", {
    status: 400,
    headers: { "content-type": "text/plain; charset=utf-8" },
  });
}
