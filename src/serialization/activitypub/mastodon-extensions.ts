// Mastodon's attachment extensions, `blurhash` and `focalPoint` (toot: namespace), which
// Fedify 2.3.6's vocabulary does not know. Mastodon reads them by their plain names, never
// through JSON-LD, so they must come out as `blurhash` and `focalPoint`, not `toot:blurhash`.
//
// `mediaDocument` makes a Document carrying them (as full IRIs in the expanded form Fedify
// builds documents from). Fedify then compacts a Note with a context that has `toot:` but not
// these terms; the Note, Question, Create and Update classes below rename the compacted keys to
// the plain names and add the terms' definitions to the document's context, which means the
// same. An activity embedding a Note must be one of these classes for its delivered form.

import { Create, Document, Note, Question, Update } from "@fedify/vocab";

const TOOT = "http://joinmastodon.org/ns#";

const TERMS = {
  toot: TOOT,
  blurhash: "toot:blurhash",
  focalPoint: { "@container": "@list", "@id": "toot:focalPoint" },
};

export interface MediaExtras {
  blurhash: string | null;
  /** Mastodon's focus: x and y from -1 to 1. */
  focalPoint: [number, number] | null;
}

type JsonObject = Record<string, unknown>;
type ToJsonLdOptions = NonNullable<Parameters<Document["toJsonLd"]>[0]>;

const isObject = (value: unknown): value is JsonObject =>
  value !== null && typeof value === "object" && !Array.isArray(value);

// Fedify copies objects with `new this.constructor(values, options)`, so the extras live
// beside the instance rather than in a constructor parameter.
const extrasOf = new WeakMap<Document, MediaExtras>();

class MediaDocument extends Document {
  override async toJsonLd(options: ToJsonLdOptions = {}): Promise<unknown> {
    const json = await super.toJsonLd(options);
    const extras = extrasOf.get(this);
    if (!extras) return json;
    if (options.format === "expand") {
      const node = Array.isArray(json) ? json[0] : json;
      if (!isObject(node)) return json;
      if (extras.blurhash !== null) node[`${TOOT}blurhash`] = [{ "@value": extras.blurhash }];
      if (extras.focalPoint !== null) {
        node[`${TOOT}focalPoint`] = [{ "@list": extras.focalPoint.map((v) => ({ "@value": v })) }];
      }
      return json;
    }
    if (!isObject(json)) return json;
    const out = withTermsInContext({ ...json });
    if (extras.blurhash !== null) out.blurhash = extras.blurhash;
    if (extras.focalPoint !== null) out.focalPoint = extras.focalPoint;
    return out;
  }
}

export function mediaDocument(
  values: ConstructorParameters<typeof Document>[0],
  extras: MediaExtras,
): Document {
  const document = new MediaDocument(values);
  extrasOf.set(document, extras);
  return document;
}

function withTermsInContext(json: JsonObject): JsonObject {
  const context = json["@context"];
  json["@context"] = [...(context === undefined ? [] : [context].flat()), TERMS];
  return json;
}

const RENAMES: Record<string, "blurhash" | "focalPoint"> = {
  "toot:blurhash": "blurhash",
  [`${TOOT}blurhash`]: "blurhash",
  "toot:focalPoint": "focalPoint",
  [`${TOOT}focalPoint`]: "focalPoint",
};

/** Renames the prefixed keys at any depth; true when any was found. */
function renameKeys(value: unknown): boolean {
  if (Array.isArray(value)) return value.map(renameKeys).some(Boolean);
  if (!isObject(value)) return false;
  let found = false;
  for (const key of Object.keys(value)) {
    const plain = RENAMES[key];
    if (plain !== undefined) {
      const inner = value[key];
      // A compacted @list (focalPoint) becomes a plain array under the @list term.
      value[plain] = isObject(inner) && Array.isArray(inner["@list"]) ? inner["@list"] : inner;
      delete value[key];
      found = true;
    } else if (renameKeys(value[key])) {
      found = true;
    }
  }
  return found;
}

/** The compacted document with Mastodon's plain attachment terms (expanded forms unchanged). */
async function compactedWithTerms(
  json: Promise<unknown>,
  options: ToJsonLdOptions,
): Promise<unknown> {
  const compacted = await json;
  if (options.format === "expand" || !isObject(compacted)) return compacted;
  // A copy: Fedify may hand back a document it keeps cached.
  const out = structuredClone(compacted);
  return renameKeys(out) ? withTermsInContext(out) : compacted;
}

export class MastodonNote extends Note {
  override toJsonLd(options: ToJsonLdOptions = {}): Promise<unknown> {
    return compactedWithTerms(super.toJsonLd(options), options);
  }
}

export class MastodonQuestion extends Question {
  override toJsonLd(options: ToJsonLdOptions = {}): Promise<unknown> {
    return compactedWithTerms(super.toJsonLd(options), options);
  }
}

export class MastodonCreate extends Create {
  override toJsonLd(options: ToJsonLdOptions = {}): Promise<unknown> {
    return compactedWithTerms(super.toJsonLd(options), options);
  }
}

export class MastodonUpdate extends Update {
  override toJsonLd(options: ToJsonLdOptions = {}): Promise<unknown> {
    return compactedWithTerms(super.toJsonLd(options), options);
  }
}
