// Accepting an inbox POST once Wren's signer gate (signer-gate.ts) has verified its HTTP
// signature with a key the actor's own document lists: the activity is queued for Fedify's
// inbox worker as Fedify itself would queue it, and answered 202, without handing the request
// to Fedify's inbox handler. That handler would verify the signature a second time (with its
// own key cache, which re-parses and re-imports the key on every request), expand the JSON-LD
// twice (looking for an integrity proof, then parsing the activity) and parse it again in the
// worker; here the only parse is the worker's. See docs/PERFORMANCE.md, "Inbox".
//
// Only plain cases take this way: a Create, Follow… of the ActivityStreams vocabulary with an
// id, addressed to the shared inbox or an existing actor's. Everything else (a body signed only
// inside, other vocabularies, odd shapes) goes through Fedify's handler as before, so what
// Fedify answers 400 is still answered 400.
//
// What the gate verified is the `actor` of the JSON as written; Fedify's parse could read
// another actor from it (an `@context` that redefines terms, an expanded-IRI duplicate). The
// verified actor therefore travels with the queued message, and the listeners drop an activity
// whose parsed actor is not that one (acceptedSigner below).

import { AsyncLocalStorage } from "node:async_hooks";
import type { Context, Message, MessageQueue } from "@fedify/fedify";
import { findListedLocalAccount } from "../../services/accounts/listed-account.ts";
import type { ServiceContext } from "../../services/context.ts";
import { instanceActorIdentifier } from "../instance-actor.ts";
import { refuseDeepText } from "./nesting-guard.ts";
import { receivePost } from "./received-body.ts";
import { checkInboxSigner } from "./signer-gate.ts";

/** The queued message's field holding the actor whose own key signed the request. */
const SIGNER_FIELD = "wrenSigner";

const ACTIVITY_STREAMS = "https://www.w3.org/ns/activitystreams";

/** Activity types with a listener, as written under the ActivityStreams context. */
const PLAIN_TYPES = new Set([
  "Accept",
  "Announce",
  "Block",
  "Create",
  "Delete",
  "Flag",
  "Follow",
  "Like",
  "Move",
  "Reject",
  "Undo",
  "Update",
]);

type Json = Record<string, unknown>;

const utf8 = new TextDecoder();

function hasActivityStreamsContext(body: Json): boolean {
  const context = body["@context"];
  return Array.isArray(context) ? context.includes(ACTIVITY_STREAMS) : context === ACTIVITY_STREAMS;
}

/** Whether the body is an activity this way may queue without Fedify's look at it. */
function isPlainActivity(body: Json): boolean {
  return (
    typeof body.type === "string" &&
    PLAIN_TYPES.has(body.type) &&
    typeof body.id === "string" &&
    URL.canParse(body.id) &&
    hasActivityStreamsContext(body)
  );
}

/** The inbox's owner from the path: null for the shared inbox, undefined for none here. */
async function recipientOf(ctx: ServiceContext, path: string): Promise<string | null | undefined> {
  if (path === "/inbox") return null;
  const match = /^\/users\/([^/]+)\/inbox$/.exec(path);
  if (!match) return undefined;
  let identifier: string;
  try {
    identifier = decodeURIComponent(match[1] as string);
  } catch {
    return undefined;
  }
  if (identifier === instanceActorIdentifier(ctx.settings)) return identifier;
  return (await findListedLocalAccount(ctx, identifier)) ? identifier : undefined;
}

/** What Wren's part of an inbox POST decided: the answer, or the request for Fedify's handler. */
export type InboxPostCheck = { answer: Response } | { fedify: Request };

/**
 * Wren's part of an inbox POST (to `path`), before Fedify: the body is read once
 * (received-body.ts), refused when nested too deeply (nesting-guard.ts) or not signed by its
 * actor's own key (signer-gate.ts), and queued here when its HTTP signature verified and it is a
 * plain activity. Otherwise Fedify's handler takes (and checks again) the request given in
 * `fedify`, in place of `request`, whose body has been read.
 */
export async function checkInboxPost(
  ctx: ServiceContext,
  queue: MessageQueue,
  request: Request,
  path: string,
  context: () => Context<ServiceContext>,
): Promise<InboxPostCheck> {
  const received = await receivePost(request);
  const toFedify = () => ({ fedify: received.readable() });
  // Decoded as `text()` would; the signature's digest is checked on the bytes as received.
  const text = utf8.decode(received.bytes);
  const tooDeep = refuseDeepText(text);
  if (tooDeep) return { answer: tooDeep };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return toFedify(); // Fedify answers 400 to what is not JSON.
  }
  const gate = await checkInboxSigner(request, parsed, context, received);
  if (gate.kind === "refused") return { answer: gate.response };
  if (gate.kind === "signed" && gate.by === "request") {
    const accepted = await acceptSigned(ctx, queue, path, parsed as Json, gate.actorId);
    if (accepted) return { answer: accepted };
  }
  return toFedify();
}

/**
 * Queues an inbox POST whose HTTP signature the gate verified as `signer`'s, and answers 202;
 * null when the request must go through Fedify's handler instead.
 */
async function acceptSigned(
  ctx: ServiceContext,
  queue: MessageQueue,
  path: string,
  body: Json,
  signer: URL,
): Promise<Response | null> {
  if (!isPlainActivity(body)) return null;
  const recipient = await recipientOf(ctx, path);
  // An inbox of no actor here: Fedify answers it (404).
  if (recipient === undefined) return null;
  const message = {
    type: "inbox",
    id: crypto.randomUUID(),
    baseUrl: new URL(ctx.settings.publicUrl).origin,
    activity: body,
    // The HTTP signature is what was verified: the worker parses the activity without its
    // LD signature, as Fedify does after verifying a request's signature.
    ldSignatureVerified: false,
    identifier: recipient,
    attempt: 0,
    started: new Date().toISOString(),
    traceContext: {},
    [SIGNER_FIELD]: signer.href,
  } satisfies Message & { [SIGNER_FIELD]: string };
  await queue.enqueue(message);
  return new Response("Activity is enqueued.", {
    status: 202,
    headers: { "content-type": "text/plain; charset=utf-8" },
  });
}

const signers = new AsyncLocalStorage<string | undefined>();

/**
 * Runs a queued federation task; inside it, `acceptedSigner()` is the actor verified when the
 * message was accepted here (undefined for messages Fedify queued itself). Every task sets its
 * own value, so none leaks from one task into work another one starts.
 */
export function runWithSigner<T>(message: Message, run: () => Promise<T>): Promise<T> {
  const signer = (message as { [SIGNER_FIELD]?: unknown })[SIGNER_FIELD];
  return signers.run(typeof signer === "string" ? signer : undefined, run);
}

/** The actor whose own key signed the inbox request of the task being run, if accepted here. */
export function acceptedSigner(): string | undefined {
  return signers.getStore();
}
