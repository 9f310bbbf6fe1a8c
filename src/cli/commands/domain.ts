// `wren domain block|unblock|list`: admin domain blocks. A blocked domain (and its subdomains)
// receives no deliveries, nothing it sends is ingested, and the follows between local accounts
// and its accounts end.

import { type Command, EXIT_FAILURE, EXIT_OK } from "../command.ts";
import { operate } from "../operate.ts";
import { commandConfig } from "../setup.ts";

export const domainBlock: Command = {
  path: ["domain", "block"],
  summary: "Block a domain and its subdomains: no deliveries, no ingestion, follows ended.",
  positionals: ["DOMAIN"],
  options: {},
  details: `Blocking ends every follow and follow request between local accounts and accounts of
the domain, in both directions (they are not restored by unblocking). A port-less domain covers
every port; \`host:port\` only that port.

Example:
  wren domain block spam.example`,
  async run({ positionals }) {
    const config = await commandConfig();
    const result = (await operate(config, "domain.block", { domain: positionals.DOMAIN })) as {
      domain: string;
      severed: number;
    };
    process.stdout.write(`${result.domain}\n`);
    const ended = result.severed === 1 ? "1 follow" : `${result.severed} follows`;
    process.stderr.write(`Blocked ${result.domain}; ended ${ended} with its accounts.\n`);
    return EXIT_OK;
  },
};

export const domainUnblock: Command = {
  path: ["domain", "unblock"],
  summary: "Lift the block of a domain.",
  positionals: ["DOMAIN"],
  options: {},
  async run({ positionals }) {
    const config = await commandConfig();
    const result = (await operate(config, "domain.unblock", {
      domain: positionals.DOMAIN,
    })) as { removed: boolean };
    if (!result.removed) {
      process.stderr.write(`wren: ${positionals.DOMAIN} is not blocked.\n`);
      return EXIT_FAILURE;
    }
    process.stderr.write(`Unblocked ${positionals.DOMAIN}.\n`);
    return EXIT_OK;
  },
};

export const domainList: Command = {
  path: ["domain", "list"],
  summary: "List the blocked domains: domain and time blocked, tab-separated.",
  positionals: [],
  options: {},
  async run() {
    const config = await commandConfig();
    const blocks = (await operate(config, "domain.list", {})) as {
      domain: string;
      createdAt: string;
    }[];
    for (const block of blocks) process.stdout.write(`${block.domain}\t${block.createdAt}\n`);
    return EXIT_OK;
  },
};
