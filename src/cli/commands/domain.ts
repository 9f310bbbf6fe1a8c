// `wren domain block|unblock|list|allow|disallow|allowed`: admin domain blocks and allows. A
// suspended domain (the default severity here) receives no deliveries, nothing it sends is
// ingested, the follows between local accounts and its accounts end and its stored content is
// purged; `silence` keeps its accounts out of public timelines; `noop` only sets the flags.

import { type Command, EXIT_OK, UsageError } from "../command.ts";
import { operate } from "../operate.ts";
import { commandConfig } from "../setup.ts";
import { removalCommand } from "./removal.ts";

const SEVERITIES = ["suspend", "silence", "noop"];

export const domainBlock: Command = {
  path: ["domain", "block"],
  summary: "Block a domain and its subdomains (suspend by default, or silence, noop).",
  positionals: ["DOMAIN"],
  options: {
    severity: {
      type: "string",
      valueName: "SEVERITY",
      description: "suspend (default), silence or noop",
    },
    "reject-media": { type: "boolean", description: "Do not take its media, avatars or emojis" },
    "reject-reports": { type: "boolean", description: "Ignore the reports it sends" },
    obfuscate: { type: "boolean", description: "Mask the domain in the public list of blocks" },
    "public-comment": {
      type: "string",
      valueName: "TEXT",
      description: "The reason shown in the public list of blocks",
    },
    "private-comment": { type: "string", valueName: "TEXT", description: "A note for admins" },
  },
  details: `Suspending ends every follow and follow request between local accounts and accounts of
the domain, in both directions (they are not restored by unblocking), and purges its stored
statuses in the background. A port-less domain covers every port; \`host:port\` only that port.
Blocking a domain blocked already changes its block to the options given.

Examples:
  wren domain block spam.example
  wren domain block loud.example --severity silence --reject-media --public-comment "Spam"`,
  async run({ positionals, options }) {
    const severity = options.severity as string | undefined;
    if (severity !== undefined && !SEVERITIES.includes(severity)) {
      throw new UsageError(`--severity must be one of ${SEVERITIES.join(", ")}`);
    }
    const config = await commandConfig();
    const result = (await operate(config, "domain.block", {
      domain: positionals.DOMAIN,
      ...(severity ? { severity } : {}),
      ...(options["reject-media"] ? { rejectMedia: true } : {}),
      ...(options["reject-reports"] ? { rejectReports: true } : {}),
      ...(options.obfuscate ? { obfuscate: true } : {}),
      ...(typeof options["public-comment"] === "string"
        ? { publicComment: options["public-comment"] }
        : {}),
      ...(typeof options["private-comment"] === "string"
        ? { privateComment: options["private-comment"] }
        : {}),
    })) as { domain: string; severity: string; severed: number };
    process.stdout.write(`${result.domain}\n`);
    const ended = result.severed === 1 ? "1 follow" : `${result.severed} follows`;
    process.stderr.write(
      result.severity === "suspend"
        ? `Suspended ${result.domain}; ended ${ended} with its accounts.\n`
        : `Blocked ${result.domain} (${result.severity}).\n`,
    );
    return EXIT_OK;
  },
};

export const domainUnblock = removalCommand({
  path: ["domain", "unblock"],
  summary: "Lift the block of a domain.",
  positional: "DOMAIN",
  operation: "domain.unblock",
  argument: "domain",
  absent: "is not blocked",
  done: "Unblocked",
});

export const domainList: Command = {
  path: ["domain", "list"],
  summary: "List the blocked domains: domain, time, severity and flags, tab-separated.",
  positionals: [],
  options: {},
  async run() {
    const config = await commandConfig();
    const blocks = (await operate(config, "domain.list", {})) as {
      domain: string;
      createdAt: string;
      severity: string;
      rejectMedia: boolean;
      rejectReports: boolean;
      obfuscate: boolean;
    }[];
    for (const block of blocks) {
      const flags = [
        block.rejectMedia ? "reject-media" : "",
        block.rejectReports ? "reject-reports" : "",
        block.obfuscate ? "obfuscate" : "",
      ].filter((f) => f !== "");
      const row = [block.domain, block.createdAt, block.severity, flags.join(",") || "-"];
      process.stdout.write(`${row.join("\t")}\n`);
    }
    return EXIT_OK;
  },
};

export const domainAllow: Command = {
  path: ["domain", "allow"],
  summary:
    "Allow a domain and its subdomains (what federates under WREN_FEDERATION_MODE=allowlist).",
  positionals: ["DOMAIN"],
  options: {},
  async run({ positionals }) {
    const config = await commandConfig();
    const allow = (await operate(config, "domain.allow", { domain: positionals.DOMAIN })) as {
      domain: string;
    };
    process.stdout.write(`${allow.domain}\n`);
    return EXIT_OK;
  },
};

export const domainDisallow = removalCommand({
  path: ["domain", "disallow"],
  summary: "Take a domain off the allowed list.",
  positional: "DOMAIN",
  operation: "domain.disallow",
  argument: "domain",
  absent: "is not allowed",
  done: "Disallowed",
});

export const domainAllowed: Command = {
  path: ["domain", "allowed"],
  summary: "List the allowed domains: domain and time allowed, tab-separated.",
  positionals: [],
  options: {},
  async run() {
    const config = await commandConfig();
    const allows = (await operate(config, "domain.allows", {})) as {
      domain: string;
      createdAt: string;
    }[];
    for (const allow of allows) process.stdout.write(`${allow.domain}\t${allow.createdAt}\n`);
    return EXIT_OK;
  },
};
