// What a client may set on a collection, checked alike on create and update (Mastodon's
// Collection validations for a local collection): a name that is not blank and at most 40
// characters, a description of at most 100, a known-looking language code, and one hashtag.

import {
  COLLECTION_DESCRIPTION_MAX_LENGTH,
  COLLECTION_NAME_MAX_LENGTH,
  type Collection,
} from "../../domain/collection.ts";
import { isHashtagName } from "../../domain/text/hashtags.ts";
import { charLength, startValidation, tooLong } from "../accounts/validation.ts";
import { normalizeLanguage } from "../statuses/compose-text.ts";

/** The fields a request gives; undefined leaves a field as it is (or at its default). */
export interface CollectionInput {
  name?: string | undefined;
  description?: string | undefined;
  language?: string | null | undefined;
  /** With or without the leading `#`; empty or null clears the tag. */
  tagName?: string | null | undefined;
  sensitive?: boolean | undefined;
  discoverable?: boolean | undefined;
}

export type CollectionFields = Pick<
  Collection,
  "name" | "description" | "language" | "tag" | "sensitive" | "discoverable"
>;

export const DEFAULT_FIELDS: CollectionFields = {
  name: "",
  description: "",
  language: null,
  tag: null,
  sensitive: false,
  discoverable: true,
};

/** `base` with the input applied, or a 422 listing every field that fails. */
export function applyCollectionInput(
  base: CollectionFields,
  input: CollectionInput,
): CollectionFields {
  const validation = startValidation();
  const name = input.name ?? base.name;
  if (name.trim() === "") validation.add("name", "ERR_BLANK", "can't be blank");
  else if (charLength(name) > COLLECTION_NAME_MAX_LENGTH) {
    validation.add("name", "ERR_TOO_LONG", tooLong(COLLECTION_NAME_MAX_LENGTH));
  }
  const description = input.description ?? base.description;
  if (charLength(description) > COLLECTION_DESCRIPTION_MAX_LENGTH) {
    validation.add("description", "ERR_TOO_LONG", tooLong(COLLECTION_DESCRIPTION_MAX_LENGTH));
  }
  let language = base.language;
  if (input.language !== undefined) {
    language =
      input.language === null || input.language === "" ? null : normalizeLanguage(input.language);
    if (input.language && language === null) {
      validation.add("language", "ERR_INVALID", "is not a valid language");
    }
  }
  let tag = base.tag;
  if (input.tagName !== undefined) {
    const bare = (input.tagName ?? "").trim().replace(/^#/, "");
    tag = bare === "" ? null : bare;
    if (tag !== null && !isHashtagName(tag))
      validation.add("tag_name", "ERR_INVALID", "is invalid");
  }
  validation.check();
  return {
    name,
    description,
    language,
    tag,
    sensitive: input.sensitive ?? base.sensitive,
    discoverable: input.discoverable ?? base.discoverable,
  };
}
