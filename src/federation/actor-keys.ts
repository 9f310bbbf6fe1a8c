// Is a request (or an activity's body) signed by a key that an actor's *own* document lists?
// A key document says who owns it (`owner`, `controller`), but that is only a claim: a key at
// `https://evil/actor/sybil#main-key` may claim to be trent's. Fedify 2.3.6 believes the claim
// (its key-ownership check compares the claimed owner with the actor; its LD-signature and
// proof checks do the same), so any server could sign as any actor elsewhere (the class of
// CVE-2024-23832). Here a key counts only as found in the actor's own document, fetched from
// the actor's id: signatures are verified with a document loader that answers every key lookup
// with that document, so a key the actor does not list is simply not found, whatever its own
// document says, and no cached copy of a key document is ever consulted.

import {
  type Context,
  type KeyCache,
  type RequestContext,
  verifyJsonLd,
  verifyObject,
  verifyRequest,
} from "@fedify/fedify";
import {
  Activity,
  type Actor,
  Object as APObject,
  type CryptographicKey,
  isActor,
  type Multikey,
} from "@fedify/vocab";
import type { DocumentLoader, RemoteDocument } from "@fedify/vocab-runtime";
import type { ServiceContext } from "../services/context.ts";
import { verifiesWithKeptKey } from "./draft-signature.ts";
import type { ReceivedPost } from "./inbox/received-body.ts";
import { signedLoader } from "./remote-actors.ts";

interface Owner {
  actor: Actor;
  remote: RemoteDocument;
  /** The keys embedded in the document, by id, ready to verify with (no parse, no import). */
  keys: Map<string, CryptographicKey | Multikey>;
}

export type OwnerDocument =
  | ({ kind: "actor" } & Owner)
  /** The actor's server answers 410: the actor was deleted. */
  | { kind: "gone" }
  /** Not fetched, or not this actor's document. */
  | { kind: "unreachable" };

const withoutFragment = (url: string) => url.replace(/#.*$/, "");

/** The actor's document from its own id; it must be an actor with exactly that id. */
async function loadOwner(
  loader: DocumentLoader,
  contextLoader: DocumentLoader,
  actorId: URL,
): Promise<OwnerDocument> {
  let remote: RemoteDocument;
  try {
    remote = await loader(actorId.href);
  } catch (error) {
    const status = (error as { response?: Response }).response?.status;
    return status === 410 ? { kind: "gone" } : { kind: "unreachable" };
  }
  if (new URL(remote.documentUrl).origin !== actorId.origin) return { kind: "unreachable" };
  try {
    const object = await APObject.fromJsonLd(remote.document, {
      documentLoader: loader,
      contextLoader,
      baseUrl: new URL(remote.documentUrl),
    });
    if (!isActor(object) || object.id?.href !== actorId.href) return { kind: "unreachable" };
    return { kind: "actor", actor: object, remote, keys: await embeddedKeys(object) };
  } catch {
    return { kind: "unreachable" };
  }
}

/** The keys embedded in the actor's document; keys given by reference are left to the loader. */
async function embeddedKeys(actor: Actor): Promise<Map<string, CryptographicKey | Multikey>> {
  const keys = new Map<string, CryptographicKey | Multikey>();
  const options = {
    documentLoader: async (): Promise<RemoteDocument> => {
      throw new Error("not embedded");
    },
    suppressError: true,
  };
  for await (const key of actor.getPublicKeys(options)) if (key.id) keys.set(key.id.href, key);
  for await (const key of actor.getAssertionMethods(options)) {
    if (key.id && !keys.has(key.id.href)) keys.set(key.id.href, key);
  }
  return keys;
}

/** Every key id the actor lists (`publicKey` and `assertionMethod`). */
export function listedKeyIds(actor: Actor): Set<string> {
  return new Set([...actor.publicKeyIds, ...actor.assertionMethodIds].map((id) => id.href));
}

/**
 * A loader for key lookups that can only find the owner's keys: the owner's own document for
 * any URL, except a key the owner lists by reference on another URL (then that URL, which the
 * owner vouches for). JSON-LD contexts are loaded by the context loader, not this one.
 */
function ownerKeyLoader(owner: Owner, loader: DocumentLoader) {
  const own = withoutFragment(owner.actor.id?.href ?? "");
  const elsewhere = new Set(
    [...listedKeyIds(owner.actor)].map(withoutFragment).filter((url) => url !== own),
  );
  const answer: DocumentLoader = async (url, options) =>
    elsewhere.has(withoutFragment(url)) ? loader(url, options) : owner.remote;
  return answer;
}

/** Which signature verified with a key the owner lists: the request's, the body's, or none. */
type SignedBy = "request" | "body" | null;

/**
 * Does any signature of the request or its body verify with a key the owner lists? `received`:
 * the request's body, when the caller has read it (then `request`'s own is not read again).
 */
async function signedWithListedKey(
  request: Request,
  body: unknown,
  owner: Owner,
  loader: DocumentLoader,
  contextLoader: DocumentLoader,
  received: ReceivedPost | undefined,
): Promise<SignedBy> {
  // The common case, a draft-cavage signature with an embedded key, checked without Fedify;
  // anything that does not verify there is Fedify's to judge (draft-signature.ts).
  if (received && verifiesWithKeptKey(request, received.bytes, owner.keys)) return "request";
  // The owner's embedded keys are answered from memory; any other key id goes to the loader,
  // which can only find what the owner lists too.
  const keyCache: KeyCache = {
    get: async (keyId) => owner.keys.get(keyId.href),
    set: async () => {},
  };
  const options = { documentLoader: ownerKeyLoader(owner, loader), contextLoader, keyCache };
  const headers = request.headers;
  if (headers.has("signature") || headers.has("signature-input")) {
    const readable = received?.readable() ?? request;
    const key = await verifyRequest(readable.clone(), options).catch(() => null);
    if (key !== null) return "request";
  }
  if (body === null || typeof body !== "object") return null;
  // Forwarded and relayed activities carry their author's signature in the body instead.
  if ("signature" in body && (await verifyJsonLd(body, options).catch(() => false))) {
    return "body";
  }
  if ("proof" in body) {
    const verified = await verifyObject(Activity, body, options).catch(() => null);
    if (verified !== null) return "body";
  }
  return null;
}

export type SignerVerdict = "verified" | "forged" | "gone" | "unreachable";

/** The verdict and, when "verified", which signature it rests on. */
export interface SignerCheck {
  verdict: SignerVerdict;
  /** "request": the HTTP signature; "body": an LD signature or integrity proof in the body. */
  by: SignedBy;
}

/** How long an actor document read for a signature check is reused (as Fedify's loader). */
const KEEP_MS = 5 * 60 * 1000;
/**
 * A kept document younger than this is not fetched again when a signature fails with it: a
 * stream of forged requests naming one actor costs its server one fetch a minute at most.
 */
const REFETCH_AFTER_MS = 60 * 1000;

interface Kept {
  remote: RemoteDocument;
  fetchedAt: number;
}

const keptKey = (url: string) => ["wren", "ownerDocument", url];

/**
 * Kept documents this process has read or written, with their expiry, per store: the durable
 * entry is read once, not on every inbox request (a copy of the whole document each time, a
 * round trip on PostgreSQL). A cache of the stored entry only: it expires with it, and a
 * signature that fails with it is checked again against the stored entry, which another
 * process may have refreshed (a rotated key).
 */
const recentlyKept = new WeakMap<object, Map<string, Kept & { expiresAt: number }>>();
const RECENTLY_KEPT = 2_000;

function recentOf(ctx: ServiceContext): Map<string, Kept & { expiresAt: number }> {
  let recent = recentlyKept.get(ctx.storage.kv);
  if (!recent) {
    recent = new Map();
    recentlyKept.set(ctx.storage.kv, recent);
  }
  return recent;
}

function remember(ctx: ServiceContext, url: string, kept: Kept, expiresAt: number): void {
  const recent = recentOf(ctx);
  recent.delete(url);
  recent.set(url, { ...kept, expiresAt });
  if (recent.size > RECENTLY_KEPT) recent.delete(recent.keys().next().value as string);
}

/** The kept document as this process last saw it, while the stored entry has not expired. */
function recentlyKeptDocument(ctx: ServiceContext, actorId: URL): Kept | undefined {
  const kept = recentOf(ctx).get(actorId.href);
  return kept && kept.expiresAt > ctx.clock.now().getTime() ? kept : undefined;
}

/** The actor document kept from an earlier check (Wren's key–value store: every process). */
async function keptDocument(ctx: ServiceContext, actorId: URL): Promise<Kept | undefined> {
  const entry = await ctx.storage.kv.get(keptKey(actorId.href));
  if (!entry?.expiresAt || Date.parse(entry.expiresAt) <= ctx.clock.now().getTime()) {
    return undefined;
  }
  const kept = entry.value as Kept;
  remember(ctx, actorId.href, kept, Date.parse(entry.expiresAt));
  return kept;
}

/**
 * `loader`, keeping each answer a few minutes. The document is the same whoever asks (here
 * always the instance actor), so a signed answer may be kept.
 */
function keeping(
  ctx: ServiceContext,
  loader: DocumentLoader,
  kept: (value: Kept) => void,
): DocumentLoader {
  return async (url, options) => {
    const remote = await loader(url, options);
    const now = ctx.clock.now().getTime();
    const value: Kept = { remote, fetchedAt: now };
    const expiresAt = new Date(now + KEEP_MS).toISOString();
    await ctx.storage.kv.set({ key: keptKey(url), value, expiresAt });
    remember(ctx, url, value, now + KEEP_MS);
    kept(value);
    return remote;
  };
}

/**
 * Kept documents already parsed, by actor id and fetch time: parsing an actor document as
 * JSON-LD and importing its keys cost more than the rest of the check. Memory only, as a
 * cache of the kept (durable) document: a process without it parses the document again.
 */
const parsed = new Map<string, Promise<OwnerDocument>>();
const PARSED_KEPT = 2_000;

function parsedAs(memo: string, owner: Promise<OwnerDocument>): void {
  parsed.set(memo, owner);
  if (parsed.size > PARSED_KEPT) parsed.delete(parsed.keys().next().value as string);
}

function parsedOnce(memo: string, load: () => Promise<OwnerDocument>): Promise<OwnerDocument> {
  let owner = parsed.get(memo);
  if (!owner) {
    owner = load();
    parsedAs(memo, owner);
  }
  return owner;
}

/**
 * Whether `request` (a POST with `body`, or a GET with body null) is signed by `actorId` as the
 * actor's own document says: "verified" when a signature verifies with a key listed there.
 * The document is fetched signed by the instance actor (servers with authorized fetch) and
 * kept a few minutes; when a signature fails with a kept copy older than a minute (a key
 * rotated since), the document is fetched afresh once. `refetch` fetches afresh whatever the
 * kept copy's age (an actor's own Delete: its document may answer 410 since).
 */
export async function verifySigner(
  fctx: Context<ServiceContext> | RequestContext<ServiceContext>,
  request: Request,
  body: unknown,
  actorId: URL,
  options: { refetch?: boolean; received?: ReceivedPost } = {},
): Promise<SignerVerdict> {
  return (await checkSigner(fctx, request, body, actorId, options)).verdict;
}

/**
 * verifySigner, telling also which signature verified. `received`: the POST's body, when the
 * caller has read it (the inbox): its digest is checked on those bytes, not read again.
 */
export async function checkSigner(
  fctx: Context<ServiceContext> | RequestContext<ServiceContext>,
  request: Request,
  body: unknown,
  actorId: URL,
  options: { refetch?: boolean; received?: ReceivedPost } = {},
): Promise<SignerCheck> {
  const ctx = fctx.data;
  // Built only when something is fetched: it reads and imports the instance actor's keys.
  const signed: DocumentLoader = async (url, options) => (await signedLoader(fctx))(url, options);
  const contextLoader = fctx.contextLoader;
  const ownerFrom = (loader: DocumentLoader) => loadOwner(loader, contextLoader, actorId);
  const check = async (ownerDocument: Promise<OwnerDocument>): Promise<SignerCheck> => {
    const owner = await ownerDocument;
    if (owner.kind !== "actor") return { verdict: owner.kind, by: null };
    const by = await signedWithListedKey(
      request,
      body,
      owner,
      signed,
      contextLoader,
      options.received,
    );
    return { verdict: by === null ? "forged" : "verified", by };
  };
  const memo = (kept: Kept) => `${actorId.href}\n${kept.fetchedAt}`;
  const keptOwner = (kept: Kept) =>
    parsedOnce(memo(kept), () => ownerFrom(async () => kept.remote));
  const recent = recentlyKeptDocument(ctx, actorId);
  if (recent) {
    const result = await check(keptOwner(recent));
    if (result.verdict === "verified") return result;
  }
  const kept = await keptDocument(ctx, actorId);
  if (kept) {
    const result = await check(keptOwner(kept));
    if (result.verdict === "verified") return result;
    const young = ctx.clock.now().getTime() - kept.fetchedAt < REFETCH_AFTER_MS;
    if (young && !options.refetch) return result;
  }
  // The fetched document is kept, and its parse with it: the next check, which finds the kept
  // copy, does not parse the same document again.
  let fetched: Kept | undefined;
  const owner = ownerFrom(keeping(ctx, signed, (value) => (fetched = value)));
  await owner;
  if (fetched) parsedAs(memo(fetched), owner);
  return check(owner);
}
