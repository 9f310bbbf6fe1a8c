/**
 * Builders for the JSON Schema (draft 2020-12) subset our entity schemas use, so each
 * entity file reads like the field tables of Mastodon's documentation: `object(always,
 * optional)` lists the attributes every answer carries, then the ones documented as
 * optional or nullable. Objects stay open (extra attributes allowed), as Mastodon adds
 * attributes over time and clients must ignore unknown ones.
 */

/** A JSON Schema object; kept read-only so entities cannot be changed by a test. */
export type Schema = { readonly [keyword: string]: unknown };

/** Base URI every entity is registered under, so `{ $ref: "Account" }` resolves between entities. */
export const ENTITY_BASE_URI = "https://wren.invalid/entities/";

export const string: Schema = { type: "string" };
export const integer: Schema = { type: "integer" };
export const number: Schema = { type: "number" };
export const boolean: Schema = { type: "boolean" };
/** An absolute URL. */
export const uri: Schema = { type: "string", format: "uri" };
/** An ISO 8601 timestamp, e.g. `2024-03-01T00:00:00.000Z`. */
export const dateTime: Schema = { type: "string", format: "date-time" };
/** An ISO 8601 calendar date, e.g. `2024-03-05`. */
export const date: Schema = { type: "string", format: "date" };
/** A language code (Mastodon documents ISO 639-1 but also emits ISO 639-3 and regional tags). */
export const language: Schema = { type: "string", format: "iso-639-1" };
export const email: Schema = { type: "string", format: "email" };

/** One of the listed strings. */
export function oneOf(...values: string[]): Schema {
  return { type: "string", enum: values };
}

export function arrayOf(items: Schema): Schema {
  return { type: "array", items };
}

/** Another entity, by the name it is registered under (see entities/index.ts). */
export function entity(name: string): Schema {
  return { $ref: name };
}

/** `schema` or `null`. */
export function nullable(schema: Schema): Schema {
  const { type, enum: values } = schema;
  if (typeof type === "string") {
    const widened: Record<string, unknown> = { ...schema, type: [type, "null"] };
    if (Array.isArray(values)) widened.enum = [...values, null];
    return widened;
  }
  return { anyOf: [schema, { type: "null" }] };
}

/**
 * An object whose `always` attributes are required and whose `optional` ones may be
 * missing (Mastodon's "optional" and "nullable" attributes; make them `nullable()` when
 * null is a documented value).
 */
export function object(
  always: Record<string, Schema>,
  optional: Record<string, Schema> = {},
  description?: string,
): Schema {
  return {
    type: "object",
    ...(description === undefined ? {} : { description }),
    required: Object.keys(always),
    properties: { ...always, ...optional },
  };
}

/** `base` with more attributes, e.g. CredentialAccount = Account + source and role. */
export function extend(
  base: Schema,
  always: Record<string, Schema>,
  optional: Record<string, Schema> = {},
  description?: string,
): Schema {
  const required = base.required as string[];
  const properties = base.properties as Record<string, Schema>;
  return {
    ...base,
    ...(description === undefined ? {} : { description }),
    required: [...required, ...Object.keys(always)],
    properties: { ...properties, ...always, ...optional },
  };
}

/**
 * An object documented in Mastodon but never produced by Wren (reports, moderation
 * warnings, …): we only check that it is an object when present.
 */
export const anyObject: Schema = { type: "object" };
