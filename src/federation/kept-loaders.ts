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

import type { Federation } from "@fedify/fedify";
import type { DocumentLoader, DocumentLoaderFactory } from "@fedify/vocab-runtime";

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

/** Makes `federation` build each of its loaders once per set of options instead of per context. */
export function keepLoaders<T>(federation: Federation<T>): void {
  const factories = federation as unknown as Partial<LoaderFactories>;
  const { documentLoaderFactory, contextLoaderFactory } = factories;
  if (typeof documentLoaderFactory !== "function" || typeof contextLoaderFactory !== "function") {
    throw new Error("Fedify's federation no longer has the loader factories keepLoaders wraps");
  }
  factories.documentLoaderFactory = keptFactory(documentLoaderFactory);
  factories.contextLoaderFactory = keptFactory(contextLoaderFactory);
}
