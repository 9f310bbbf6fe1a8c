// `wren rule add|list|remove`: the server rules (GET /api/v1/instance/rules, cited by reports).
// The first change starts from WREN_RULES (ids kept); from then on the stored rules are used.

import { type Command, EXIT_OK } from "../command.ts";
import { operate } from "../operate.ts";
import { commandConfig } from "../setup.ts";

interface ListedRule {
  id: string;
  text: string;
  hint: string;
}

export const ruleAdd: Command = {
  path: ["rule", "add"],
  summary: "Add a server rule and print its id.",
  positionals: ["TEXT"],
  options: {
    hint: { type: "string", valueName: "HINT", description: "A longer explanation of the rule" },
  },
  details: `Ids are never reused: removing a rule leaves the others' ids (which reports cite) alone.

Example:
  wren rule add "No spam" --hint "Unsolicited advertising included"`,
  async run({ positionals, options }) {
    const config = await commandConfig();
    const rule = (await operate(config, "instance.rules.add", {
      text: positionals.TEXT,
      ...(typeof options.hint === "string" ? { hint: options.hint } : {}),
    })) as ListedRule;
    process.stdout.write(`${rule.id}\n`);
    return EXIT_OK;
  },
};

export const ruleList: Command = {
  path: ["rule", "list"],
  summary: "List the server rules: id, text and hint, tab-separated.",
  positionals: [],
  options: {},
  async run() {
    const config = await commandConfig();
    const rules = (await operate(config, "instance.rules.list", {})) as ListedRule[];
    for (const r of rules) process.stdout.write(`${r.id}\t${r.text}\t${r.hint}\n`);
    return EXIT_OK;
  },
};

export const ruleRemove: Command = {
  path: ["rule", "remove"],
  summary: "Remove a server rule by id.",
  positionals: ["ID"],
  options: {},
  async run({ positionals }) {
    const config = await commandConfig();
    const rule = (await operate(config, "instance.rules.remove", {
      id: positionals.ID,
    })) as ListedRule;
    process.stderr.write(`Removed rule ${rule.id}: ${rule.text}\n`);
    return EXIT_OK;
  },
};
