// The second half of `wren doctor`: while the stores load (every file parsed by the server's own
// rules), the few fields that tie records together are noted here; afterwards they are checked
// against each other. Orphans (a record pointing at an account, status or poll that is not
// there), counters stored on records (a poll's totals against its votes) and the unique indexes
// (one account per username and per ActivityPub id, one status per ActivityPub id).

import { join } from "node:path";

export type ProblemKind = "damaged" | "orphan" | "counter" | "index" | "mode";

export interface Problem {
  kind: ProblemKind;
  /** The file (or folder) concerned. */
  path: string;
  message: string;
  /** What --fix did about it, when it did something. */
  fixed?: string;
}

/** Edge folders whose acting side is not an account: quotes go from the quoting status. */
const EDGE_SOURCES: Record<string, "account" | "status"> = { quotes: "status" };

/** Edge folders whose target is an account, a status or a poll (others are not checked). */
const EDGE_TARGETS: Record<string, "account" | "status" | "poll"> = {
  follows: "account",
  "follow-requests": "account",
  blocks: "account",
  mutes: "account",
  "account-notes": "account",
  endorsements: "account",
  "suggestion-dismissals": "account",
  favourites: "status",
  quotes: "status",
  bookmarks: "status",
  pins: "status",
  "poll-votes": "poll",
};

interface Located {
  path: string;
}
interface AccountFact extends Located {
  acct: string;
  uri: string;
}
interface StatusFact extends Located {
  accountId: string;
  uri: string;
}
interface EdgeFact extends Located {
  folder: string;
  accountId: string;
  targetId: string;
  choices?: number[];
}
interface PollFact extends Located {
  statusId: string;
  optionCounts: number[];
  votesCount: number;
  votersCount: number;
}

type Fields = Record<string, unknown>;
const text = (value: unknown): string => (typeof value === "string" ? value : String(value));

export class RecordFacts {
  readonly #root: string;
  readonly #accounts = new Map<string, AccountFact>();
  readonly #statuses = new Map<string, StatusFact>();
  readonly #polls = new Map<string, PollFact>();
  readonly #edges: EdgeFact[] = [];
  readonly #users: (Located & { accountId: string })[] = [];

  constructor(root: string) {
    this.#root = root;
  }

  /** Called for every record file loaded (see LoadInspector.loaded). */
  note(folder: string, file: string, record: object): void {
    const r = record as Fields;
    const path = join(this.#root, folder, file);
    if (folder === "accounts") {
      const domain = r.domain === null ? "" : text(r.domain);
      const acct = `${text(r.username)}@${domain}`.toLowerCase();
      this.#accounts.set(text(r.id), { path, acct, uri: text(r.uri) });
    } else if (folder === "statuses") {
      this.#statuses.set(text(r.id), { path, accountId: text(r.accountId), uri: text(r.uri) });
    } else if (folder === "users") {
      this.#users.push({ path, accountId: text(r.accountId) });
    } else if (folder === "polls") {
      const options = Array.isArray(r.options) ? (r.options as Fields[]) : [];
      this.#polls.set(text(r.id), {
        path,
        statusId: text(r.statusId),
        optionCounts: options.map((o) => Number(o.votesCount)),
        votesCount: Number(r.votesCount),
        votersCount: Number(r.votersCount),
      });
    } else if (folder in EDGE_TARGETS) {
      this.#edges.push({
        path,
        folder,
        accountId: text(r.accountId),
        targetId: text(r.targetId),
        ...(Array.isArray(r.choices) ? { choices: r.choices as number[] } : {}),
      });
    }
  }

  /** Every problem found between the records noted. */
  check(): Problem[] {
    return [...this.#orphans(), ...this.#pollCounters(), ...this.#uniqueIndexes()];
  }

  *#orphans(): Generator<Problem> {
    const orphan = (path: string, message: string): Problem => ({ kind: "orphan", path, message });
    for (const [id, status] of this.#statuses) {
      if (!this.#accounts.has(status.accountId)) {
        yield orphan(status.path, `status ${id} of account ${status.accountId}, which is missing`);
      }
    }
    for (const user of this.#users) {
      if (!this.#accounts.has(user.accountId)) {
        yield orphan(user.path, `sign-in of account ${user.accountId}, which is missing`);
      }
    }
    for (const [id, poll] of this.#polls) {
      if (!this.#statuses.has(poll.statusId)) {
        yield orphan(poll.path, `poll ${id} of status ${poll.statusId}, which is missing`);
      }
    }
    const known = { account: this.#accounts, status: this.#statuses, poll: this.#polls };
    for (const edge of this.#edges) {
      const target = EDGE_TARGETS[edge.folder] as keyof typeof known;
      const source = EDGE_SOURCES[edge.folder] ?? "account";
      if (!known[source].has(edge.accountId)) {
        yield orphan(
          edge.path,
          `${edge.folder} entry of ${source} ${edge.accountId}, which is missing`,
        );
      } else if (!known[target].has(edge.targetId)) {
        yield orphan(
          edge.path,
          `${edge.folder} entry for ${target} ${edge.targetId}, which is missing`,
        );
      }
    }
  }

  *#pollCounters(): Generator<Problem> {
    const tallies = new Map<string, { voters: number; votes: number; options: number[] }>();
    for (const edge of this.#edges) {
      if (edge.folder !== "poll-votes") continue;
      const tally = tallies.get(edge.targetId) ?? { voters: 0, votes: 0, options: [] };
      tally.voters++;
      for (const choice of edge.choices ?? []) {
        tally.votes++;
        tally.options[choice] = (tally.options[choice] ?? 0) + 1;
      }
      tallies.set(edge.targetId, tally);
    }
    for (const [id, poll] of this.#polls) {
      const tally = tallies.get(id) ?? { voters: 0, votes: 0, options: [] };
      const options = poll.optionCounts.map((_, i) => tally.options[i] ?? 0);
      const stored = [poll.votesCount, poll.votersCount, ...poll.optionCounts].join(",");
      const counted = [tally.votes, tally.voters, ...options].join(",");
      if (stored !== counted) {
        yield {
          kind: "counter",
          path: poll.path,
          message:
            `poll ${id} stores ${poll.votesCount} votes by ${poll.votersCount} voters ` +
            `(options ${poll.optionCounts.join("/")}), its votes count ${tally.votes} by ` +
            `${tally.voters} (options ${options.join("/")})`,
        };
      }
    }
  }

  *#uniqueIndexes(): Generator<Problem> {
    yield* duplicates(this.#accounts, (a) => a.acct, "accounts share the username");
    yield* duplicates(this.#accounts, (a) => a.uri, "accounts share the ActivityPub id");
    yield* duplicates(this.#statuses, (s) => s.uri, "statuses share the ActivityPub id");
  }
}

/** Records whose `keyOf` equals an earlier record's: the index can point at only one. */
function* duplicates<F extends Located>(
  facts: Map<string, F>,
  keyOf: (fact: F) => string,
  what: string,
): Generator<Problem> {
  const first = new Map<string, F>();
  for (const fact of facts.values()) {
    const key = keyOf(fact);
    const earlier = first.get(key);
    if (earlier === undefined) first.set(key, fact);
    else yield { kind: "index", path: fact.path, message: `${what} ${key} with ${earlier.path}` };
  }
}
