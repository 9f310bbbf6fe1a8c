// Fedify asks its loader factories for new document and context loaders every time it builds a
// context: twice per queued inbox task (the task's context, then the shared inbox's with the
// instance actor's signed loader), and for every request it handles. With private addresses
// allowed (tests and benchmarks of several local instances), where Fedify refuses Wren's own
// loaders, each of its built-in loaders is a new `kvCache` with a new `URLPattern` and a
// `Temporal.Duration` (polyfills): about 0.3 ms of CPU per context, near a tenth of an inbox
// activity's (docs/PERFORMANCE.md, "Inbox, round three"). The loaders keep no state of their own
// (the cache is the key–value store), so one per set of options serves every context. Signed
// loaders (authenticatedDocumentLoaderFactory) are left as they are: cheap to build, no cache.
//
// Fedify 2.3.6 has no option for this: the factories are fields of its federation object, which
// keepLoaders wraps. A Fedify without them fails here at start-up (kept-loaders.test.ts).
//
// The context loaders also mark the contexts Fedify bundles (ActivityStreams, security, …) as
// `static`, the tag by which jsonld keeps a processed context in its process-wide cache. Without
// it jsonld processes the same bundled context again in every expansion (a JSON.stringify of it
// as a cache key, its URLs resolved), and Fedify expands an inbox Create(Note) seven times: its
// parse fell from about 0.58 to 0.43 ms of CPU (docs/PERFORMANCE.md, "Inbox, round six"). Only
// the bundled documents themselves are marked: they never change while the process runs, and
// any loader of Fedify's answers them for those URLs; a context fetched from the network is not.

import type { Federation } from "@fedify/fedify";
import {
  type DocumentLoader,
  type DocumentLoaderFactory,
  preloadedContexts,
  type RemoteDocument,
} from "@fedify/vocab-runtime";

interface LoaderFactories {
  documentLoaderFactory: DocumentLoaderFactory;
  contextLoaderFactory: DocumentLoaderFactory;
}

/**
 * The options as a map key; undefined (not kept) when one of them is not plain data, which
 * JSON would drop from the key.
 */
function keyOf(options: unknown): string | undefined {
  if (options === undefined || options === null) return "";
  if (typeof options !== "object") return undefined;
  for (const value of Object.values(options)) {
    if (typeof value === "function" || typeof value === "symbol") return undefined;
  }
  return JSON.stringify(options);
}

function keptFactory(build: DocumentLoaderFactory): DocumentLoaderFactory {
  const kept = new Map<string, DocumentLoader>();
  return (options) => {
    const key = keyOf(options);
    if (key === undefined) return build(options);
    let loader = kept.get(key);
    if (!loader) {
      loader = build(options);
      kept.set(key, loader);
    }
    return loader;
  };
}

/** `loader`, answering the contexts Fedify bundles with jsonld's `static` tag. */
export function markingBundledStatic(loader: DocumentLoader): DocumentLoader {
  return async (url, options) => {
    const remote = await loader(url, options);
    const bundled =
      Object.hasOwn(preloadedContexts, url) && remote.document === preloadedContexts[url];
    // `tag` is jsonld's field of a remote document; Fedify's type does not name it.
    return bundled ? ({ ...remote, tag: "static" } as RemoteDocument) : remote;
  };
}

/**
 * Makes `federation` build each of its loaders once per set of options instead of per context,
 * its context loaders marking the bundled contexts static.
 */
export function keepLoaders<T>(federation: Federation<T>): void {
  const factories = federation as unknown as Partial<LoaderFactories>;
  const { documentLoaderFactory, contextLoaderFactory } = factories;
  if (typeof documentLoaderFactory !== "function" || typeof contextLoaderFactory !== "function") {
    throw new Error("Fedify's federation no longer has the loader factories keepLoaders wraps");
  }
  factories.documentLoaderFactory = keptFactory(documentLoaderFactory);
  factories.contextLoaderFactory = keptFactory((options) =>
    markingBundledStatic(contextLoaderFactory(options)),
  );
}
