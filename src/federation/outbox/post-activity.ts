// One delivery's HTTP request: the activity's JSON posted to an inbox, signed with the sender's
// RSA key, through the address guard and a kept-alive connection pool (safe-fetch.ts).
//
// Signed first with draft-cavage HTTP Signatures (cavage-signature.ts: what Mastodon, Misskey,
// Pleroma, GoToSocial and Fedify all verify); a peer that answers 400 or 401 is asked once more
// with an RFC 9421 signature (Fedify's signRequest), so a server that only knows the newer
// standard is still reached. (Fedify knocks with RFC 9421 first and remembers each server's
// answer in a durable write; Wren knocks with the signature every peer accepts and has nothing to
// remember.) Redirects are not followed: an inbox is posted to where the actor document says.

import { signRequest } from "@fedify/fedify";
import {
  guardedSend,
  type SafeFetchAgents,
  type SafeFetchOptions,
  safeFetch,
} from "../safe-fetch.ts";
import { cavageSignedHeaders } from "./cavage-signature.ts";
import type { SigningKey } from "./signing-keys.ts";

/** How deliveries reach other servers. */
export interface DeliveryTransport {
  agents: SafeFetchAgents;
  userAgent: string;
  /** Tests of several local instances allow every address; the server never does. */
  allowPrivateAddress: boolean;
  /** Whole request, both knocks included (default 15 s). */
  timeoutMs?: number;
  /** Tests only: names resolved, and addresses treated as public, as they say. */
  guard?: Pick<SafeFetchOptions, "resolveHost" | "isAllowedAddress">;
}

export interface InboxAnswer {
  status: number;
  headers: Headers;
}

/** A peer's answer is only a status; its body is drained and dropped. */
const ANSWER_MAX_BYTES = 64 * 1024;

/**
 * Posts `body` to `inbox`, signed with `key`. Resolves with the peer's answer, whatever its
 * status; throws a SafeFetchError when no answer came (refused address, connection, time).
 */
export async function postActivity(
  inbox: URL,
  body: Uint8Array,
  key: SigningKey,
  extraHeaders: Readonly<Record<string, string>>,
  transport: DeliveryTransport,
): Promise<InboxAnswer> {
  const guard = {
    agents: transport.agents,
    maxBytes: ANSWER_MAX_BYTES,
    signal: AbortSignal.timeout(transport.timeoutMs ?? 15_000),
    ...(transport.allowPrivateAddress ? { isAllowedAddress: () => true } : {}),
    ...transport.guard,
  };
  const headers = {
    ...extraHeaders,
    "content-type": "application/activity+json",
    "user-agent": transport.userAgent,
  };
  const signed = await cavageSignedHeaders(inbox, body, key, headers);
  const first = await guardedSend(inbox, { method: "POST", headers: signed, body }, guard);
  if (first.status !== 400 && first.status !== 401) return first;
  const privateKey = await key.cryptoKey();
  const buffer = body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength);
  const second = await safeFetch(
    inbox,
    { method: "POST", headers, body },
    {
      ...guard,
      followRedirects: false,
      discardBody: true,
      prepare: (request) =>
        signRequest(request, privateKey, key.keyId, {
          spec: "rfc9421",
          body: buffer as ArrayBuffer,
        }),
    },
  );
  return { status: second.status, headers: second.headers };
}
