// A guarded fetch for remote documents (actors, objects, keys, collections): it refuses private,
// loopback, link-local and other non-public addresses (public-address.ts), checking every
// address a name resolves to and then connecting to one of those very addresses (so a DNS
// answer cannot change between the check and the connection), follows redirects itself and
// checks each hop the same way, and caps redirects, response bytes and total time.
//
// The loader builders below give Fedify document loaders on top of it. Fedify forbids custom
// loaders together with `allowPrivateAddress`, so federation.ts uses them only when private
// addresses are not allowed (always, outside tests of several local instances).

import { lookup as dnsLookup } from "node:dns/promises";
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { isIP, type LookupFunction } from "node:net";
import {
  type FederationOptions,
  type KvStore as FedifyKvStore,
  kvCache,
  signRequest,
} from "@fedify/fedify";
import {
  type AuthenticatedDocumentLoaderFactory,
  type DocumentLoader,
  type DocumentLoaderFactory,
  getRemoteDocument,
  getUserAgent,
  preloadedContexts,
} from "@fedify/vocab-runtime";
import { isPublicAddress } from "./public-address.ts";

/** Resolves a host name to all its addresses (node:dns `lookup` with `all: true`). */
export type HostResolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

export interface SafeFetchOptions {
  /** Largest response body accepted (default 1 MiB). */
  maxBytes?: number;
  /** Total time for all hops, headers and body (default 10 s). */
  timeoutMs?: number;
  /** Redirects followed at most (default 5). */
  maxRedirects?: number;
  /** How host names are resolved (default: the system resolver); tests inject their own. */
  resolveHost?: HostResolver;
  /**
   * Which addresses may be connected to (default: public ones only). Tests use it to treat one
   * loopback address as if it were public; the server never sets it.
   */
  isAllowedAddress?: (address: string) => boolean;
  signal?: AbortSignal;
  /** Completes each request before it is sent, redirects included (e.g. signs it). */
  prepare?: (request: Request) => Promise<Request>;
  /**
   * Keep-alive pools to send through, by protocol (default: a new connection per request). A
   * pool is safe under the guard: a new connection's name lookup is still answered with the
   * checked address (the request's `lookup`, which a pool passes on to its connections), so a
   * pooled connection to a host is always one that was made to an address checked for it.
   */
  agents?: SafeFetchAgents;
  /**
   * Answer with the status and headers only (an empty body): the body is read and dropped, so a
   * kept-alive connection can serve the next request, and a large one (over `maxBytes`) closes
   * the connection instead of failing the request. For deliveries, where only the status counts.
   */
  discardBody?: boolean;
  /** false: a redirect is the answer, not followed (a POST that must not land elsewhere). */
  followRedirects?: boolean;
}

/** Connection pools for safeFetch (SafeFetchOptions.agents). */
export interface SafeFetchAgents {
  http: HttpAgent;
  https: HttpsAgent;
}

/**
 * Keep-alive pools for a sender that talks to a few hosts again and again (push services): per
 * host at most `maxSockets` connections, idle ones closed after `idleMs`.
 */
export function keepAliveAgents(
  options: { maxSockets?: number; idleMs?: number } = {},
): SafeFetchAgents {
  const settings = {
    keepAlive: true,
    maxSockets: options.maxSockets ?? 16,
    maxFreeSockets: options.maxSockets ?? 16,
    timeout: options.idleMs ?? 30_000,
  };
  return { http: new HttpAgent(settings), https: new HttpsAgent(settings) };
}

export const SAFE_FETCH_DEFAULTS = { maxBytes: 1024 * 1024, timeoutMs: 10_000, maxRedirects: 5 };

/** A fetch the guard refused or cut short (address, redirects, size, time, protocol). */
export class SafeFetchError extends Error {
  readonly url: string;
  constructor(url: string, message: string) {
    super(`${url}: ${message}`);
    this.name = "SafeFetchError";
    this.url = url;
  }
}

/**
 * The guard refused the host's address (private, loopback…): unlike a failed connection this
 * will not change by trying again, so deliveries drop instead of retrying.
 */
export class AddressRefusedError extends SafeFetchError {
  constructor(url: string) {
    super(url, "not a public address");
    this.name = "AddressRefusedError";
  }
}

const systemResolver: HostResolver = (hostname) => dnsLookup(hostname, { all: true });

/** The checked address to connect to for `url`, or a SafeFetchError. */
async function publicAddressOf(
  url: URL,
  resolveHost: HostResolver,
  allowed: (address: string) => boolean,
): Promise<{ address: string; family: number }> {
  const hostname = url.hostname.replace(/^\[(.*)\]$/, "$1");
  if (isIP(hostname) !== 0) {
    if (!allowed(hostname)) throw new AddressRefusedError(url.href);
    return { address: hostname, family: isIP(hostname) };
  }
  // Names that mean this machine are refused without a lookup; a caller with its own address
  // rule (an operator-configured service) has their addresses checked by it like any other.
  if (
    allowed === isPublicAddress &&
    (hostname === "localhost" || hostname.endsWith(".localhost"))
  ) {
    throw new AddressRefusedError(url.href);
  }
  let addresses: { address: string; family: number }[];
  try {
    addresses = await resolveHost(hostname);
  } catch {
    throw new SafeFetchError(url.href, "host name does not resolve");
  }
  if (addresses.length === 0) throw new SafeFetchError(url.href, "host name does not resolve");
  // Every address must be public: a name with one private address among public ones could be
  // steered to it by whoever controls its DNS.
  for (const { address } of addresses) {
    if (!allowed(address)) throw new AddressRefusedError(url.href);
  }
  return addresses[0] as { address: string; family: number };
}

function headersOf(raw: IncomingMessage["headers"]): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  return headers;
}

interface Answer {
  status: number;
  headers: Headers;
  body: Uint8Array;
}

/** One hop: the request sent to the pinned address, the response with its body capped. */
function send(
  url: URL,
  request: { method: string; headers: Record<string, string>; body: Uint8Array | null },
  pinned: { address: string; family: number },
  options: {
    maxBytes: number;
    signal: AbortSignal;
    agents: SafeFetchAgents | undefined;
    discardBody: boolean;
  },
): Promise<Answer> {
  const { headers, body } = request;
  // Answers the connection's name lookup with the address already checked.
  const lookup: LookupFunction = (_hostname, lookupOptions, callback) => {
    if (lookupOptions.all) callback(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  };
  const secure = url.protocol === "https:";
  const make = secure ? httpsRequest : httpRequest;
  const agent = options.agents ? (secure ? options.agents.https : options.agents.http) : false;
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (reason: string) => {
      if (settled) return;
      settled = true;
      reject(
        new SafeFetchError(url.href, options.signal.aborted ? "timed out or aborted" : reason),
      );
    };
    const done = (answer: Answer) => {
      if (settled) return;
      settled = true;
      resolve(answer);
    };
    const tooLarge = `response larger than ${options.maxBytes} bytes`;
    const req = make(
      {
        protocol: url.protocol,
        hostname: url.hostname.replace(/^\[(.*)\]$/, "$1"),
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: request.method,
        headers,
        lookup,
        signal: options.signal,
        agent,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        // A Headers object is built only when asked for: a delivery reads none of a 2xx answer's
        // (some 20 µs of a delivery's main-thread time, for four headers).
        const raw = res.headers;
        let built: Headers | undefined;
        const answer = (body: Uint8Array): Answer => ({
          status,
          body,
          get headers() {
            built ??= headersOf(raw);
            return built;
          },
        });
        res.on("error", (error) => fail(error.message));
        res.on("aborted", () => fail("response aborted"));
        const declared = Number(res.headers["content-length"]);
        if (options.discardBody) {
          done(answer(new Uint8Array()));
          if (Number.isFinite(declared) && declared > options.maxBytes) res.destroy();
          let drained = 0;
          res.on("data", (chunk: Buffer) => {
            drained += chunk.length;
            if (drained > options.maxBytes) res.destroy();
          });
          return;
        }
        if (Number.isFinite(declared) && declared > options.maxBytes) {
          fail(tooLarge);
          res.destroy();
          return;
        }
        // A redirect's body is never read.
        if (status >= 300 && status < 400 && res.headers.location) {
          done(answer(new Uint8Array()));
          res.destroy();
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > options.maxBytes) {
            fail(tooLarge);
            res.destroy();
            return;
          }
          chunks.push(chunk);
        });
        res.on("end", () => done(answer(new Uint8Array(Buffer.concat(chunks)))));
      },
    );
    req.on("error", (error: NodeJS.ErrnoException) => {
      // A kept-alive connection the server closed just as it was reused: nothing was answered,
      // so the request goes again, once, on a connection of its own (not counted as a failure).
      const stale = error.code === "ECONNRESET" || error.code === "EPIPE";
      if (!settled && req.reusedSocket && stale && !options.signal.aborted) {
        settled = true;
        resolve(send(url, request, pinned, { ...options, agents: undefined }));
        return;
      }
      fail(`request failed: ${error.message}`);
    });
    if (body) req.end(body);
    else req.end();
  });
}

/**
 * Fetches `url` under the guard: GET unless `init` says otherwise; the answer is a Response
 * whose `url` is the final one after redirects. Throws SafeFetchError when refused or cut off.
 */
export async function safeFetch(
  url: string | URL,
  init: { method?: string; headers?: Record<string, string>; body?: Uint8Array | null } = {},
  options: SafeFetchOptions = {},
): Promise<Response> {
  const maxBytes = options.maxBytes ?? SAFE_FETCH_DEFAULTS.maxBytes;
  const maxRedirects = options.maxRedirects ?? SAFE_FETCH_DEFAULTS.maxRedirects;
  const timeout = AbortSignal.timeout(options.timeoutMs ?? SAFE_FETCH_DEFAULTS.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const resolveHost = options.resolveHost ?? systemResolver;
  const allowed = options.isAllowedAddress ?? isPublicAddress;
  let current = new URL(url);
  let method = init.method ?? "GET";
  let body = init.body ?? null;
  for (let hop = 0; ; hop++) {
    if (current.protocol !== "https:" && current.protocol !== "http:") {
      throw new SafeFetchError(current.href, `unsupported protocol ${current.protocol}`);
    }
    if (signal.aborted) throw new SafeFetchError(current.href, "timed out or aborted");
    const pinned = await publicAddressOf(current, resolveHost, allowed);
    let request = new Request(current, {
      method,
      redirect: "manual",
      ...(init.headers ? { headers: init.headers } : {}),
      ...(body ? { body } : {}),
    });
    if (options.prepare) request = await options.prepare(request);
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const answer = await send(current, { method: request.method, headers, body }, pinned, {
      maxBytes,
      signal,
      agents: options.agents,
      discardBody: options.discardBody ?? false,
    });
    const location = answer.headers.get("location");
    const follow = options.followRedirects ?? true;
    if (follow && answer.status >= 300 && answer.status < 400 && location !== null) {
      if (hop >= maxRedirects) throw new SafeFetchError(current.href, "too many redirects");
      let next: URL;
      try {
        next = new URL(location, current);
      } catch {
        throw new SafeFetchError(current.href, "bad redirect location");
      }
      // As browsers do: 303, and 301/302 after a POST, continue as a GET without a body.
      if (answer.status === 303 || (method === "POST" && answer.status <= 302)) {
        method = "GET";
        body = null;
      }
      current = next;
      continue;
    }
    const noBody = answer.status === 204 || answer.status === 304 || method === "HEAD";
    const response = new Response(noBody ? null : answer.body, {
      status: answer.status,
      headers: answer.headers,
    });
    Object.defineProperty(response, "url", { value: current.href });
    return response;
  }
}

/**
 * One request under the guard, without redirects or Fetch API objects: the name checked, the
 * connection made to the checked address, the answer's status and headers (its body dropped).
 * For deliveries, which are many and need nothing else; throws SafeFetchError as safeFetch does.
 */
export async function guardedSend(
  url: URL,
  request: { method: string; headers: Record<string, string>; body: Uint8Array | null },
  options: Omit<SafeFetchOptions, "prepare" | "maxRedirects" | "discardBody" | "followRedirects">,
): Promise<{ status: number; headers: Headers }> {
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new SafeFetchError(url.href, `unsupported protocol ${url.protocol}`);
  }
  const timeout = AbortSignal.timeout(options.timeoutMs ?? SAFE_FETCH_DEFAULTS.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const pinned = await publicAddressOf(
    url,
    options.resolveHost ?? systemResolver,
    options.isAllowedAddress ?? isPublicAddress,
  );
  const answer = await send(url, request, pinned, {
    maxBytes: options.maxBytes ?? SAFE_FETCH_DEFAULTS.maxBytes,
    signal,
    agents: options.agents,
    discardBody: true,
  });
  // The answer itself, its headers still unbuilt until read.
  return answer;
}

// ---- Fedify document loaders -------------------------------------------------------------

const ACTIVITY_ACCEPT = "application/activity+json, application/ld+json";

export interface SafeLoaderSettings extends Omit<SafeFetchOptions, "signal" | "prepare"> {
  /** The User-Agent of every request (Fedify's `userAgent` option cannot be combined). */
  userAgent: string;
}

function preloaded(url: string) {
  return Object.hasOwn(preloadedContexts, url)
    ? { contextUrl: null, document: preloadedContexts[url], documentUrl: url }
    : undefined;
}

/** An unsigned document loader under the guard; well-known JSON-LD contexts are built in. */
export function createSafeDocumentLoader(settings: SafeLoaderSettings): DocumentLoader {
  const load: DocumentLoader = async (url, options) => {
    const known = preloaded(url);
    if (known) return known;
    const response = await safeFetch(
      url,
      { headers: { accept: ACTIVITY_ACCEPT, "user-agent": settings.userAgent } },
      { ...settings, ...(options?.signal ? { signal: options.signal } : {}) },
    );
    return getRemoteDocument(url, response, load);
  };
  return load;
}

/**
 * For FederationOptions.documentLoaderFactory (and contextLoaderFactory): the guarded loader,
 * cached in Fedify's key–value store as Fedify's own loader is (5 minutes) when `kv` is given.
 * Built once: Fedify asks the factory for every request and queued task, and each kvCache
 * builds its URL pattern and duration anew (about 8% of the inbox's CPU when built per call).
 * The loader keeps no state of its own, so one serves every caller.
 */
export function safeDocumentLoaderFactory(
  settings: SafeLoaderSettings & { kv?: FedifyKvStore },
): DocumentLoaderFactory {
  const loader = createSafeDocumentLoader(settings);
  const cached = settings.kv ? kvCache({ loader, kv: settings.kv }) : loader;
  return () => cached;
}

/**
 * For FederationOptions.authenticatedDocumentLoaderFactory: GETs signed by the given key (the
 * instance actor's, for servers with authorized fetch). Signed with draft-cavage HTTP
 * Signatures, which every peer accepts; a peer answering 400/401/403 is asked once more with
 * an RFC 9421 signature. Not cached: answers may depend on who asks.
 */
export function safeAuthenticatedLoaderFactory(
  settings: SafeLoaderSettings,
): AuthenticatedDocumentLoaderFactory {
  return (identity) => {
    const signWith = (spec: "draft-cavage-http-signatures-12" | "rfc9421") => (request: Request) =>
      signRequest(request, identity.privateKey, identity.keyId, { spec });
    const load: DocumentLoader = async (url, options) => {
      const known = preloaded(url);
      if (known) return known;
      const init = { headers: { accept: ACTIVITY_ACCEPT, "user-agent": settings.userAgent } };
      const base = { ...settings, ...(options?.signal ? { signal: options.signal } : {}) };
      let response = await safeFetch(url, init, {
        ...base,
        prepare: signWith("draft-cavage-http-signatures-12"),
      });
      if (response.status === 400 || response.status === 401 || response.status === 403) {
        response = await safeFetch(url, init, { ...base, prepare: signWith("rfc9421") });
      }
      return getRemoteDocument(url, response, load);
    };
    return load;
  };
}

/**
 * The remote-fetch part of the federation's options. With private addresses allowed (tests of
 * several local instances only), Fedify's own loaders, which then skip their address check;
 * otherwise the guarded loaders above. Fedify refuses custom loaders together with its
 * `userAgent` option, so the User-Agent is then set by the loaders themselves.
 */
export function remoteFetchOptions(settings: {
  publicUrl: string;
  allowPrivateAddress: boolean;
  kv: FedifyKvStore;
}): Pick<
  FederationOptions<unknown>,
  | "allowPrivateAddress"
  | "userAgent"
  | "documentLoaderFactory"
  | "contextLoaderFactory"
  | "authenticatedDocumentLoaderFactory"
> {
  const userAgent = { software: "Wren", url: new URL(settings.publicUrl) };
  if (settings.allowPrivateAddress) return { allowPrivateAddress: true, userAgent };
  const loader = { userAgent: getUserAgent(userAgent) };
  const documents = safeDocumentLoaderFactory({ ...loader, kv: settings.kv });
  return {
    allowPrivateAddress: false,
    documentLoaderFactory: documents,
    contextLoaderFactory: documents,
    authenticatedDocumentLoaderFactory: safeAuthenticatedLoaderFactory(loader),
  };
}
