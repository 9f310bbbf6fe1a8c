// A report about an account (and some of its statuses) for the moderators: filed by a local user
// (POST /api/v1/reports) or sent by another server with a Flag activity. Mastodon keeps the same
// fields. Records stored before categories, rules, forwarding and resolution existed lack those
// fields: `reportOf` reads any stored report with their defaults.

/** Longest comment, in characters (Mastodon's limit). */
export const MAX_REPORT_COMMENT = 1000;

export const REPORT_CATEGORIES = ["spam", "legal", "violation", "other"] as const;
export type ReportCategory = (typeof REPORT_CATEGORIES)[number];

export interface Report {
  id: string;
  /** Who reported: a local user, or the remote account that sent the Flag (often an instance actor). */
  accountId: string;
  /** The reported account. */
  targetAccountId: string;
  /** Reported statuses of the target account. */
  statusIds: string[];
  /** The reporter's comment, as plain text. */
  comment: string;
  /** The Flag activity id of a received report, so a redelivered Flag is stored once. */
  uri: string | null;
  createdAt: string;
  category: ReportCategory;
  /** Ids of the instance rules the report cites (category `violation`). */
  ruleIds: string[];
  /** A copy was sent (as a Flag from the instance actor) to the target's server. */
  forwarded: boolean;
  /** Other servers a copy was sent to: those of accounts the reported statuses reply to. */
  forwardedToDomains: string[];
  /** When a moderator resolved the report; null while it is open. */
  actionTakenAt: string | null;
  /** The local account that resolved it, when known (null when resolved from the command line). */
  actionTakenById: string | null;
  /** The moderator who took the report on (admin API `assign_to_self`); null: nobody. */
  assignedAccountId: string | null;
  /** When a moderator last changed it (resolved, reopened, assigned, recategorised). */
  updatedAt: string;
}

/** The fields added after reports were first stored. */
type LaterField =
  | "category"
  | "ruleIds"
  | "forwarded"
  | "forwardedToDomains"
  | "actionTakenAt"
  | "actionTakenById"
  | "assignedAccountId"
  | "updatedAt";

/** A report as it may be stored: older records lack the later fields. */
export type StoredReport = Omit<Report, LaterField> & Partial<Pick<Report, LaterField>>;

/** A stored report (possibly stored before some fields existed) as a whole Report. */
export function reportOf(stored: StoredReport): Report {
  // What an older report meant: uncategorised, citing no rule, kept here, still open.
  return {
    category: "other",
    ruleIds: [],
    forwarded: false,
    forwardedToDomains: [],
    actionTakenAt: null,
    actionTakenById: null,
    assignedAccountId: null,
    updatedAt: stored.actionTakenAt ?? stored.createdAt,
    ...stored,
  };
}

export function isResolved(report: Report): boolean {
  return report.actionTakenAt !== null;
}
