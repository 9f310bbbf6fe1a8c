// The shape of one `wren` command and the small argument parser they share (node:util's
// parseArgs plus required positionals and options). Every command answers --help.

import { parseArgs } from "node:util";

export interface OptionSpec {
  type: "string" | "boolean";
  description: string;
  /** Shown in help after the option name, e.g. `--email EMAIL`. */
  valueName?: string;
  required?: boolean;
  short?: string;
}

export interface ParsedArgs {
  positionals: Record<string, string>;
  options: Record<string, string | boolean | undefined>;
}

export interface Command {
  /** Words after `wren`, e.g. `["account", "create"]`. */
  path: string[];
  summary: string;
  /** Required positional arguments, in order, e.g. `["USERNAME"]`. */
  positionals: string[];
  options: Record<string, OptionSpec>;
  /** Extra help text (examples, notes) after the options. */
  details?: string;
  run(args: ParsedArgs): Promise<number>;
}

/** Wrong use of the command line: the message goes to stderr and the exit code is 2. */
export class UsageError extends Error {
  readonly helpCommand: string;

  constructor(message: string, helpCommand = "wren --help") {
    super(message);
    this.name = "UsageError";
    this.helpCommand = helpCommand;
  }
}

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

export function commandName(command: Command): string {
  return ["wren", ...command.path].join(" ");
}

export function usageLine(command: Command): string {
  const parts = [commandName(command), ...command.positionals];
  for (const [name, spec] of Object.entries(command.options)) {
    const flag = spec.type === "string" ? `--${name} ${spec.valueName ?? "VALUE"}` : `--${name}`;
    parts.push(spec.required ? flag : `[${flag}]`);
  }
  return parts.join(" ");
}

export function commandHelp(command: Command): string {
  const lines = [`Usage: ${usageLine(command)}`, "", command.summary, "", "Options:"];
  const entries: [string, string][] = Object.entries(command.options).map(([name, spec]) => [
    `${spec.short ? `-${spec.short}, ` : ""}--${name}${spec.type === "string" ? ` ${spec.valueName ?? "VALUE"}` : ""}`,
    spec.description,
  ]);
  entries.push(["-h, --help", "Show this help"]);
  const width = Math.max(...entries.map(([flag]) => flag.length));
  for (const [flag, text] of entries) lines.push(`  ${flag.padEnd(width)}  ${text}`);
  if (command.details) lines.push("", command.details.trimEnd());
  return `${lines.join("\n")}\n`;
}

/** `--help` anywhere among the arguments, even beside mistakes. */
export function wantsHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf("--");
  const before = end === -1 ? argv : argv.slice(0, end);
  return before.includes("--help") || before.includes("-h");
}

export function parseCommandArgs(command: Command, argv: string[]): ParsedArgs {
  const helpFor = `${commandName(command)} --help`;
  const options: Record<string, { type: "string" | "boolean"; short?: string }> = {};
  for (const [name, spec] of Object.entries(command.options)) {
    options[name] = spec.short ? { type: spec.type, short: spec.short } : { type: spec.type };
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    // parseArgs explains the problem well ("Unknown option '--x'"); keep its first line.
    throw new UsageError(String((error as Error).message).split("\n")[0] ?? "", helpFor);
  }

  const given = parsed.positionals;
  if (given.length < command.positionals.length) {
    const missing = command.positionals.slice(given.length).join(" ");
    throw new UsageError(`Missing ${missing}`, helpFor);
  }
  if (given.length > command.positionals.length) {
    const extra = given.slice(command.positionals.length).join(" ");
    throw new UsageError(`Unexpected argument: ${extra}`, helpFor);
  }
  const positionals: Record<string, string> = {};
  command.positionals.forEach((name, i) => {
    positionals[name] = given[i] ?? "";
  });

  const values = parsed.values as Record<string, string | boolean | undefined>;
  for (const [name, spec] of Object.entries(command.options)) {
    if (spec.required && values[name] === undefined) {
      throw new UsageError(`Missing --${name}`, helpFor);
    }
  }
  return { positionals, options: values };
}
