// The shape of the `wren … remove|unblock|disallow NAME` commands: one admin operation that
// answers whether (or how many) it removed; exit 1 with a message when there was nothing.

import { type Command, EXIT_FAILURE, EXIT_OK } from "../command.ts";
import { operate } from "../operate.ts";
import { commandConfig } from "../setup.ts";

export function removalCommand(spec: {
  path: string[];
  summary: string;
  positional: string;
  operation: string;
  /** The operation's argument named after the positional (e.g. `domain`). */
  argument: string;
  /** "is not blocked", "is not allowed"… */
  absent: string;
  /** "Unblocked", "Disallowed"… */
  done: string;
}): Command {
  return {
    path: spec.path,
    summary: spec.summary,
    positionals: [spec.positional],
    options: {},
    async run({ positionals }) {
      const name = positionals[spec.positional] as string;
      const config = await commandConfig();
      const { removed } = (await operate(config, spec.operation, {
        [spec.argument]: name,
      })) as { removed: boolean | number };
      if (removed === false || removed === 0) {
        process.stderr.write(`wren: ${name} ${spec.absent}.\n`);
        return EXIT_FAILURE;
      }
      process.stderr.write(`${spec.done} ${name}.\n`);
      return EXIT_OK;
    },
  };
}
