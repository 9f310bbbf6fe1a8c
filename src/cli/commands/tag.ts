// `wren tag list|show|allow|deny|set`: the staff's say over hashtags: whether one may trend
// (reviewed for the trends), be used (its timeline, search, trends) and be listed (search).

import type { TagSummary } from "../../admin/operations-tags.ts";
import { type Command, EXIT_OK, UsageError } from "../command.ts";
import { operate } from "../operate.ts";
import { commandConfig } from "../setup.ts";

const yesNo = (value: boolean) => (value ? "yes" : "no");

function printTag(tag: TagSummary): void {
  const row = [
    tag.name,
    `trendable=${yesNo(tag.trendable)}`,
    `usable=${yesNo(tag.usable)}`,
    `listable=${yesNo(tag.listable)}`,
    tag.requiresReview ? "review" : tag.reviewedAt ? `reviewed ${tag.reviewedAt}` : "-",
  ];
  process.stdout.write(`${row.join("\t")}\n`);
}

async function setTag(name: string, flags: Record<string, boolean | undefined>) {
  const config = await commandConfig();
  printTag((await operate(config, "tag.set", { name, ...flags })) as TagSummary);
  return EXIT_OK;
}

export const tagList: Command = {
  path: ["tag", "list"],
  summary: "List the hashtags that trended or were reviewed, with their flags.",
  positionals: [],
  options: {
    pending: { type: "boolean", description: "Only those waiting for a review" },
  },
  details: `One hashtag per line, tab-separated: name, trendable, usable, listable, and "review"
when it trended and nobody decided yet (else when it was reviewed, or "-").

Example:
  wren tag list --pending`,
  async run({ options }) {
    const config = await commandConfig();
    const tags = (await operate(config, "tag.list", {
      pending: options.pending === true,
    })) as TagSummary[];
    for (const tag of tags) printTag(tag);
    return EXIT_OK;
  },
};

export const tagShow: Command = {
  path: ["tag", "show"],
  summary: "Show a hashtag's flags.",
  positionals: ["NAME"],
  options: {},
  async run({ positionals }) {
    const config = await commandConfig();
    printTag((await operate(config, "tag.show", { name: positionals.NAME })) as TagSummary);
    return EXIT_OK;
  },
};

export const tagAllow: Command = {
  path: ["tag", "allow"],
  summary: "Approve a hashtag for the trends.",
  positionals: ["NAME"],
  options: {},
  run: ({ positionals }) => setTag(positionals.NAME as string, { trendable: true }),
};

export const tagDeny: Command = {
  path: ["tag", "deny"],
  summary: "Reject a hashtag from the trends.",
  positionals: ["NAME"],
  options: {},
  run: ({ positionals }) => setTag(positionals.NAME as string, { trendable: false }),
};

function flagOf(name: string, value: string | boolean | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === "yes") return true;
  if (value === "no") return false;
  throw new UsageError(`--${name} takes yes or no.`, "wren tag set --help");
}

export const tagSet: Command = {
  path: ["tag", "set"],
  summary: "Set whether a hashtag may be used and listed.",
  positionals: ["NAME"],
  options: {
    usable: {
      type: "string",
      valueName: "yes|no",
      description: "no: its timeline is empty, search and trends leave it out",
    },
    listable: { type: "string", valueName: "yes|no", description: "no: search leaves it out" },
  },
  details: `Example:
  wren tag set spam --usable no`,
  run: ({ positionals, options }) =>
    setTag(positionals.NAME as string, {
      usable: flagOf("usable", options.usable),
      listable: flagOf("listable", options.listable),
    }),
};
