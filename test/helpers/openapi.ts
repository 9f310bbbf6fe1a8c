/**
 * Test helper: validate HTTP response bodies against the project's own schemas of
 * Mastodon's entities (test/schemas/entities/, written from Mastodon's documentation) and
 * the operations table (test/schemas/operations.ts: method + path → status → entity).
 * Everything it needs lives in this repository, so the tests run from any clone.
 *
 * The schemas are JSON Schema draft 2020-12, compiled with Ajv2020 (a devDependency); nothing
 * about them is relaxed beyond what the entity files say.
 */
import { AssertionError } from "node:assert/strict";
import type { ErrorObject, ValidateFunction } from "ajv/dist/2020.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { entities } from "../schemas/entities/index.ts";
import { ENTITY_BASE_URI, type Schema } from "../schemas/json-schema.ts";
import { EMPTY, type OperationRow, operations } from "../schemas/operations.ts";

// ajv-formats is CommonJS with `exports.default`; under `module: nodenext` the
// default import is `module.exports`, whose `.default` is the plugin itself.
const addFormats = addFormatsModule.default;

/** Where the schemas live, named in failure messages so a reader knows what to edit. */
const TABLE = "the operations table (test/schemas/operations.ts)";

/** The operation chosen for a concrete request. */
export interface MatchedOperation {
  /** Lower-case HTTP method, e.g. `"get"`. */
  method: string;
  /** Path template as written in the table, e.g. `"/api/v1/accounts/{id}"`. */
  template: string;
  operationId: string | undefined;
  /** Values of the templated segments, e.g. `{ id: "123" }`. */
  params: Record<string, string>;
}

interface CompiledTemplate {
  operation: OperationRow;
  /** `null` marks a `{param}` segment. */
  segments: (string | null)[];
  paramNames: (string | null)[];
}

interface State {
  ajv: Ajv2020;
  templates: CompiledTemplate[];
  validators: Map<Schema, ValidateFunction>;
  /** Every object of every schema → where it is written, to print where a failing keyword lives. */
  locations: WeakMap<object, string>;
}

let state: State | undefined;

function load(): State {
  if (state) return state;
  const ajv = new Ajv2020({ strict: true, allErrors: true, verbose: true });
  addFormats(ajv);
  // Documented as "ISO 639-1" but Mastodon also emits ISO 639-3 codes (e.g. "kab",
  // "zgh") and regional variants (e.g. "zh-TW"), so accept a basic language tag.
  ajv.addFormat("iso-639-1", /^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/);
  const locations = new WeakMap<object, string>();
  for (const [name, schema] of Object.entries(entities)) {
    // Registered under its name, so `{ $ref: "Account" }` resolves from any entity. A deep
    // copy, as entities share small schemas (`string`, …): each failing keyword then has one
    // place to report.
    const registered = { ...unshared(schema), $id: `${ENTITY_BASE_URI}${name}` };
    ajv.addSchema(registered);
    indexLocations(registered, `entities/${name}#`, locations);
  }
  const templates = operations.map((operation) => {
    const parts = splitPath(operation.template);
    return {
      operation,
      segments: parts.map((p) => (isParamSegment(p) ? null : p)),
      paramNames: parts.map((p) => (isParamSegment(p) ? p.slice(1, -1) : null)),
    };
  });
  state = { ajv, templates, validators: new Map(), locations };
  return state;
}

/** A deep copy in which no object appears twice (structuredClone would keep shared ones shared). */
function unshared(schema: Schema): Schema {
  return JSON.parse(JSON.stringify(schema)) as Schema;
}

function indexLocations(node: unknown, pointer: string, out: WeakMap<object, string>): void {
  if (node === null || typeof node !== "object" || out.has(node)) return;
  out.set(node, pointer);
  for (const [key, value] of Object.entries(node)) {
    indexLocations(value, `${pointer}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`, out);
  }
}

function isParamSegment(segment: string): boolean {
  return segment.startsWith("{") && segment.endsWith("}");
}

function splitPath(path: string): string[] {
  return path.split("/").filter((s) => s !== "");
}

function label(operation: OperationRow): string {
  return `${operation.method.toUpperCase()} ${operation.template}`;
}

/** The compiled validator of a response schema of `operation`; `$ref`s resolve to the entities. */
function getValidator(schema: Schema, operation: OperationRow, status: number): ValidateFunction {
  const s = load();
  let validate = s.validators.get(schema);
  if (!validate) {
    // A response schema may be a bare `{ $ref: "Account" }`: give it the entities' base.
    const compiled = {
      ...unshared(schema),
      $id: `${ENTITY_BASE_URI}response-${s.validators.size}`,
    };
    indexLocations(compiled, `operations ${label(operation)} ${status}#`, s.locations);
    validate = s.ajv.compile(compiled);
    s.validators.set(schema, validate);
  }
  return validate;
}

function entityValidator(name: string): ValidateFunction {
  const validate = load().ajv.getSchema(`${ENTITY_BASE_URI}${name}`);
  if (!validate) throw new Error(`entity ${name} is not registered`);
  return validate;
}

// ---------------------------------------------------------------------------
// Error formatting
// ---------------------------------------------------------------------------

/** `/fields/0/name` → `$.fields[0].name` */
function humanPath(instancePath: string): string {
  if (instancePath === "") return "$";
  let out = "$";
  for (const raw of instancePath.slice(1).split("/")) {
    const token = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (/^\d+$/.test(token)) out += `[${token}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(token)) out += `.${token}`;
    else out += `[${JSON.stringify(token)}]`;
  }
  return out;
}

function preview(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function describeError(error: ErrorObject): string {
  let path = error.instancePath;
  let message = error.message ?? error.keyword;
  if (error.keyword === "required") {
    path += `/${String((error.params as { missingProperty: string }).missingProperty)}`;
    message = "is required but missing";
  } else if (error.keyword === "enum") {
    const allowed = (error.params as { allowedValues: unknown[] }).allowedValues;
    message = `must be one of ${allowed.map((v) => JSON.stringify(v)).join(", ")}`;
  }
  const got = error.keyword === "required" ? "" : ` (got ${preview(error.data)})`;
  return `  - ${humanPath(path)}: ${message}${got}  [${schemaLocation(error)}]`;
}

/** Where the failing keyword is written, e.g. `entities/Account#/required`. */
function schemaLocation(error: ErrorObject): string {
  const parent = error.parentSchema;
  const base = parent && typeof parent === "object" ? state?.locations.get(parent) : undefined;
  if (base !== undefined) return `${base}/${error.keyword}`;
  return decodeURIComponent(error.schemaPath).replace(ENTITY_BASE_URI, "entities/");
}

export function formatAjvErrors(errors: readonly ErrorObject[] | null | undefined): string {
  if (!errors || errors.length === 0) return "  (no details)";
  const lines = [...new Set(errors.map(describeError))];
  return lines.join("\n");
}

function validateOrThrow(
  validate: ValidateFunction,
  body: unknown,
  what: string,
  stackStartFn: (...args: never[]) => unknown,
): void {
  if (validate(body)) return;
  const errors = validate.errors ?? [];
  throw new AssertionError({
    message: `Response body does not match ${what} (${errors.length} error${errors.length === 1 ? "" : "s"}):\n${formatAjvErrors(errors)}`,
    actual: body,
    expected: what,
    operator: "matchesSchema",
    stackStartFn,
  });
}

function fail(message: string, stackStartFn: (...args: never[]) => unknown): never {
  throw new AssertionError({ message, operator: "matchesSchema", stackStartFn });
}

// ---------------------------------------------------------------------------
// Public API
// ---------------------------------------------------------------------------

/** Names of all entity schemas (test/schemas/entities/index.ts). */
export function schemaNames(): string[] {
  return Object.keys(entities);
}

/**
 * Assert that `body` is a valid `<schemaName>` entity, e.g. `"Account"`,
 * `"CredentialAccount"`, `"V1Instance"`, `"Instance"`.
 * Throws an AssertionError listing every violation.
 */
export function assertMatchesSchema(body: unknown, schemaName: string): void {
  if (!Object.hasOwn(entities, schemaName)) {
    const close = Object.keys(entities).filter((n) =>
      n.toLowerCase().includes(schemaName.toLowerCase().replace(/[^a-z0-9]/g, "")),
    );
    fail(
      `No schema named ${JSON.stringify(schemaName)} in test/schemas/entities` +
        (close.length > 0 ? ` (did you mean: ${close.join(", ")}?)` : ""),
      assertMatchesSchema,
    );
  }
  validateOrThrow(entityValidator(schemaName), body, `schema ${schemaName}`, assertMatchesSchema);
}

/**
 * Find the table's operation for a concrete request, e.g. `GET /api/v1/accounts/123`
 * → `/api/v1/accounts/{id}`. Query string / fragment / origin are ignored and a
 * trailing slash is tolerated. When several templates match, the one with a
 * literal segment at the first position where they differ wins (so
 * `/api/v1/accounts/verify_credentials` beats `/api/v1/accounts/{id}`), like a
 * router that tries static routes first. Returns `undefined` if nothing matches.
 */
export function findOperation(method: string, path: string): MatchedOperation | undefined {
  const best = findTemplate(method, path);
  if (!best) return undefined;
  const { operation } = best.t;
  return {
    method: operation.method,
    template: operation.template,
    operationId: operation.operationId,
    params: best.params,
  };
}

function findTemplate(
  method: string,
  path: string,
): { t: CompiledTemplate; params: Record<string, string> } | undefined {
  const m = method.toLowerCase();
  const parts = splitPath(normalizePath(path));
  let best: { t: CompiledTemplate; params: Record<string, string> } | undefined;
  for (const t of load().templates) {
    if (t.operation.method !== m || t.segments.length !== parts.length) continue;
    const params: Record<string, string> = {};
    let ok = true;
    for (let i = 0; i < parts.length; i++) {
      const literal = t.segments[i];
      const part = parts[i] as string;
      if (literal === null) {
        params[t.paramNames[i] as string] = safeDecode(part);
      } else if (literal !== part) {
        ok = false;
        break;
      }
    }
    if (ok && (!best || moreSpecific(t, best.t))) best = { t, params };
  }
  return best;
}

function moreSpecific(a: CompiledTemplate, b: CompiledTemplate): boolean {
  for (let i = 0; i < a.segments.length; i++) {
    const aLiteral = a.segments[i] !== null;
    const bLiteral = b.segments[i] !== null;
    if (aLiteral !== bLiteral) return aLiteral;
  }
  return false;
}

function normalizePath(path: string): string {
  let p = path;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(p)) p = new URL(p).pathname;
  p = p.replace(/[?#].*$/, "");
  if (p.length > 1 && p.endsWith("/")) p = p.slice(0, -1);
  return p;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * Assert that `body` matches the entity the operations table gives for the response
 * `status` of the operation matching `method path`.
 *
 * - Success statuses are looked up exactly; an undocumented one, or one documented
 *   without a JSON body (`EMPTY`), throws so the test notices the gap.
 * - Error statuses (>= 400) are validated against the operation's richer error body if
 *   it lists one, otherwise against the Error entity (Mastodon always answers errors
 *   with `{ "error": ... }`).
 * - Throws if no operation matches the method and path.
 */
export function assertMatchesResponse(
  method: string,
  path: string,
  status: number,
  body: unknown,
): void {
  const match = findTemplate(method, path);
  const request = `${method.toUpperCase()} ${path}`;
  if (!match) {
    const parts = splitPath(normalizePath(path));
    const byTemplate = new Map<string, string[]>();
    for (const t of load().templates) {
      const fits =
        t.segments.length === parts.length &&
        t.segments.every((s, i) => s === null || s === parts[i]);
      if (!fits) continue;
      const methods = byTemplate.get(t.operation.template) ?? [];
      methods.push(t.operation.method.toUpperCase());
      byTemplate.set(t.operation.template, methods);
    }
    const otherMethods = [...byTemplate].map(([t, methods]) => `${t} (${methods.join(", ")})`);
    fail(
      `No operation in ${TABLE} matches ${request}` +
        (otherMethods.length > 0 ? `; the path matches only: ${otherMethods.join("; ")}` : ""),
      assertMatchesResponse,
    );
  }

  const { operation } = match.t;
  const name = label(operation);
  if (status >= 400) {
    const richer = operation.errorResponses?.[status];
    if (richer !== undefined) {
      validateOrThrow(
        getValidator(richer, operation, status),
        body,
        `the ${status} response schema of ${name} (${describeSchema(richer)})`,
        assertMatchesResponse,
      );
      return;
    }
    validateOrThrow(
      entityValidator("Error"),
      body,
      `schema Error (generic fallback: ${TABLE} lists no richer body for ${status} of ${name})`,
      assertMatchesResponse,
    );
    return;
  }

  const response = operation.responses[status];
  if (response === undefined) {
    const documented = Object.keys(operation.responses).join(", ");
    fail(
      `${name} (for ${request}) does not document status ${status}; documented: ${documented} and errors`,
      assertMatchesResponse,
    );
  }
  if (response === EMPTY) {
    fail(
      `${name} (for ${request}) has no JSON schema for status ${status} (documented without a` +
        " JSON body); validate the body with assertMatchesSchema() or assert it directly instead",
      assertMatchesResponse,
    );
  }
  validateOrThrow(
    getValidator(response, operation, status),
    body,
    `the ${status} response schema of ${name} (${describeSchema(response)})`,
    assertMatchesResponse,
  );
}

function describeSchema(schema: Schema): string {
  const ref = (x: unknown): string | undefined =>
    x !== null && typeof x === "object" && typeof (x as Schema).$ref === "string"
      ? String((x as Schema).$ref)
      : undefined;
  const direct = ref(schema);
  if (direct) return direct;
  if (schema.type === "array") {
    const item = ref(schema.items);
    if (item) return `array of ${item}`;
  }
  return "inline schema";
}
