// One delivery's HTTP request: the activity's JSON posted to an inbox, signed with the sender's
// RSA key, through the address guard and a kept-alive connection pool (safe-fetch.ts).
//
// Signed first with draft-cavage HTTP Signatures (`(request-target)`, host, date, digest and
// the content type: what Mastodon, Misskey, Pleroma, GoToSocial and Fedify all verify), through
// Fedify's public signRequest; a peer that answers 400 or 401 is asked once more with an RFC 9421
// signature, so a server that only knows the newer standard is still reached. (Fedify knocks
// with RFC 9421 first and remembers each server's answer in a durable write; Wren knocks with the
// signature every peer accepts and has nothing to remember.) Redirects are not followed: an
// inbox is posted to where the actor document says it is.

import type { webcrypto } from "node:crypto";
import { signRequest } from "@fedify/fedify";
import { type SafeFetchAgents, type SafeFetchOptions, safeFetch } from "../safe-fetch.ts";

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

export interface SigningKey {
  keyId: URL;
  privateKey: webcrypto.CryptoKey;
}

export interface InboxAnswer {
  status: number;
  headers: Headers;
}

/** A peer's answer is only a status; its body is drained and dropped. */
const ANSWER_MAX_BYTES = 64 * 1024;

type Spec = "draft-cavage-http-signatures-12" | "rfc9421";

/**
 * Posts `body` to `inbox`, signed with `key`. Resolves with the peer's answer, whatever its
 * status; throws a SafeFetchError when no answer came (refused address, connection, time).
 */
export async function postActivity(
  inbox: URL,
  body: ArrayBuffer,
  key: SigningKey,
  extraHeaders: Readonly<Record<string, string>>,
  transport: DeliveryTransport,
): Promise<InboxAnswer> {
  const timeout = AbortSignal.timeout(transport.timeoutMs ?? 15_000);
  const headers = {
    ...extraHeaders,
    "content-type": "application/activity+json",
    "user-agent": transport.userAgent,
  };
  const post = async (spec: Spec): Promise<InboxAnswer> => {
    const response = await safeFetch(
      inbox,
      { method: "POST", headers, body: new Uint8Array(body) },
      {
        agents: transport.agents,
        followRedirects: false,
        maxBytes: ANSWER_MAX_BYTES,
        discardBody: true,
        signal: timeout,
        // The body is handed over as it is, so signing digests it without copying the request.
        prepare: (request) => signRequest(request, key.privateKey, key.keyId, { spec, body }),
        ...(transport.allowPrivateAddress ? { isAllowedAddress: () => true } : {}),
        ...transport.guard,
      },
    );
    return { status: response.status, headers: response.headers };
  };
  const first = await post("draft-cavage-http-signatures-12");
  if (first.status !== 400 && first.status !== 401) return first;
  return post("rfc9421");
}
