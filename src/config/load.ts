// Reads the configuration once: the optional JSON file named by WREN_CONFIG, then WREN_*
// variables on top. Invalid values stop the start with one clear line per problem.

import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { type Config, configSchema, ENV_KEYS } from "./schema.ts";

export class ConfigError extends Error {
  readonly problems: string[];

  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
    this.problems = problems;
  }
}

const KEY_TO_ENV = new Map<string, string>([
  ...Object.entries(ENV_KEYS).map(([env, key]) => [key, env] as [string, string]),
  // Lists, parsed from their variables by hand below.
  ["rules", "WREN_RULES"],
  ["trustedProxies", "WREN_TRUSTED_PROXIES"],
]);

function readConfigFile(path: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new ConfigError([`WREN_CONFIG: cannot read ${path} (${(error as Error).message})`]);
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
      throw new Error("the file must hold a JSON object");
    }
    return parsed as Record<string, unknown>;
  } catch (error) {
    throw new ConfigError([`WREN_CONFIG: ${path} is not valid JSON (${(error as Error).message})`]);
  }
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const raw: Record<string, unknown> = env.WREN_CONFIG ? readConfigFile(env.WREN_CONFIG) : {};
  for (const [name, key] of Object.entries(ENV_KEYS)) {
    const value = env[name];
    if (value !== undefined && value !== "") raw[key] = value;
  }
  // Read here with every other variable; the media layer searches it for ffmpeg and ffprobe.
  raw.searchPath = env.PATH ?? "";
  if (env.WREN_RULES) raw.rules = env.WREN_RULES.split("\n").filter((r) => r.trim() !== "");
  if (env.WREN_TRUSTED_PROXIES !== undefined) {
    raw.trustedProxies = env.WREN_TRUSTED_PROXIES.split(/[\s,]+/).filter(
      (p) => p !== "" && p.toLowerCase() !== "none",
    );
  }
  const result = configSchema.strict().safeParse(raw);
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((issue) => {
        const key = String(issue.path[0] ?? "");
        const name = KEY_TO_ENV.get(key) ?? (key || "config");
        return `${name}: ${issue.message}`;
      }),
    );
  }
  return { ...result.data, dataDir: resolve(result.data.dataDir) };
}
