// `wren instance set|show|clear`: the documents apps show about the server — the extended
// description (about page), the privacy policy and the terms of service (in versions by the
// date each takes effect). The file is HTML (.html, .htm) or plain text (anything else), unless
// --format says which; `-` reads standard input.

import { readFileSync } from "node:fs";
import { DOCUMENT_MAX_BYTES } from "../../domain/instance-documents.ts";
import { type Command, EXIT_FAILURE, EXIT_OK, UsageError } from "../command.ts";
import { operate } from "../operate.ts";
import { readBounded } from "../read-bounded.ts";
import { commandConfig } from "../setup.ts";

const DOCUMENTS = ["extended-description", "privacy-policy", "terms-of-service"] as const;
type Document = (typeof DOCUMENTS)[number];

/** One byte over the server's limit, so the server reports an oversized file. */
const READ_LIMIT = DOCUMENT_MAX_BYTES + 1;

function documentOf(value: string | undefined, help: string): Document {
  if ((DOCUMENTS as readonly string[]).includes(value ?? "")) return value as Document;
  throw new UsageError(`DOCUMENT must be one of ${DOCUMENTS.join(", ")}`, help);
}

function dateOption(options: Record<string, string | boolean | undefined>) {
  const date = options["effective-date"];
  return typeof date === "string" ? { effectiveDate: date } : {};
}

const DOCUMENT_HELP = `DOCUMENT is extended-description (the about page), privacy-policy or terms-of-service.`;

export const instanceSet: Command = {
  path: ["instance", "set"],
  summary: "Publish a document: extended-description, privacy-policy or terms-of-service.",
  positionals: ["DOCUMENT", "FILE"],
  options: {
    format: {
      type: "string",
      valueName: "FORMAT",
      description: "html or text (default: html for .html/.htm files, else text)",
    },
    "effective-date": {
      type: "string",
      valueName: "DATE",
      description: "terms-of-service only: the day (YYYY-MM-DD) this version takes effect; today",
    },
  },
  details: `${DOCUMENT_HELP}
HTML is published as given; plain text becomes paragraphs (blank lines between them), with
links. Setting the terms of service for a date that has a version replaces that version.

Examples:
  wren instance set extended-description about.html
  wren instance set terms-of-service terms-2026.md --effective-date 2026-01-01`,
  async run({ positionals, options }) {
    const help = "wren instance set --help";
    const document = documentOf(positionals.DOCUMENT, help);
    const file = positionals.FILE as string;
    const format = options.format ?? (/\.html?$/i.test(file) ? "html" : "text");
    if (format !== "html" && format !== "text") {
      throw new UsageError("--format must be html or text", help);
    }
    if (document !== "terms-of-service" && options["effective-date"] !== undefined) {
      throw new UsageError("--effective-date is for terms-of-service only", help);
    }
    const bytes =
      file === "-"
        ? readFileSync(0).subarray(0, READ_LIMIT)
        : await readBounded(file, READ_LIMIT, help);
    const text = bytes.toString("utf8");
    const config = await commandConfig();
    if (document === "terms-of-service") {
      const version = (await operate(config, "instance.terms.set", {
        text,
        format,
        ...dateOption(options),
      })) as { effectiveDate: string };
      process.stderr.write(`Published the terms of service effective ${version.effectiveDate}.\n`);
    } else {
      await operate(config, "instance.document.set", { kind: document, text, format });
      process.stderr.write(`Published the ${document}.\n`);
    }
    return EXIT_OK;
  },
};

interface TermsVersion {
  effectiveDate: string;
  content: string;
  updatedAt: string;
}

export const instanceShow: Command = {
  path: ["instance", "show"],
  summary: "Print a published document's HTML (terms-of-service: its versions, or one by date).",
  positionals: ["DOCUMENT"],
  options: {
    "effective-date": {
      type: "string",
      valueName: "DATE",
      description: "terms-of-service only: print the HTML of the version of that day",
    },
  },
  details: `${DOCUMENT_HELP}
Without --effective-date, terms-of-service lists its versions: effective date and last update,
tab-separated.`,
  async run({ positionals, options }) {
    const document = documentOf(positionals.DOCUMENT, "wren instance show --help");
    const config = await commandConfig();
    if (document === "terms-of-service") {
      const versions = (await operate(config, "instance.terms.list", {})) as TermsVersion[];
      const date = options["effective-date"];
      if (typeof date !== "string") {
        for (const v of versions) process.stdout.write(`${v.effectiveDate}\t${v.updatedAt}\n`);
        return EXIT_OK;
      }
      const version = versions.find((v) => v.effectiveDate === date);
      if (!version) {
        process.stderr.write(`wren: no terms of service take effect on ${date}.\n`);
        return EXIT_FAILURE;
      }
      process.stdout.write(`${version.content}\n`);
      return EXIT_OK;
    }
    const found = (await operate(config, "instance.document.get", { kind: document })) as {
      content: string;
    } | null;
    if (!found) {
      process.stderr.write(`wren: no ${document} is published.\n`);
      return EXIT_FAILURE;
    }
    process.stdout.write(`${found.content}\n`);
    return EXIT_OK;
  },
};

export const instanceClear: Command = {
  path: ["instance", "clear"],
  summary: "Withdraw a document (terms-of-service: the version of --effective-date).",
  positionals: ["DOCUMENT"],
  options: {
    "effective-date": {
      type: "string",
      valueName: "DATE",
      description: "terms-of-service only (required there): the version to withdraw",
    },
  },
  details: DOCUMENT_HELP,
  async run({ positionals, options }) {
    const help = "wren instance clear --help";
    const document = documentOf(positionals.DOCUMENT, help);
    const config = await commandConfig();
    let removed: boolean;
    if (document === "terms-of-service") {
      if (typeof options["effective-date"] !== "string") {
        throw new UsageError("Missing --effective-date", help);
      }
      ({ removed } = (await operate(config, "instance.terms.remove", dateOption(options))) as {
        removed: boolean;
      });
    } else {
      ({ removed } = (await operate(config, "instance.document.clear", { kind: document })) as {
        removed: boolean;
      });
    }
    if (!removed) {
      process.stderr.write(`wren: nothing to withdraw.\n`);
      return EXIT_FAILURE;
    }
    process.stderr.write(`Withdrew the ${document}.\n`);
    return EXIT_OK;
  },
};
