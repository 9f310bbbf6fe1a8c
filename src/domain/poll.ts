// A poll attached to a status. Counts are kept on the record so reading a poll is one lookup;
// each voter's choices are a PollVote edge (voter → poll).

import type { Edge } from "./relations.ts";

export interface PollOption {
  title: string;
  votesCount: number;
}

export interface Poll {
  id: string;
  statusId: string;
  accountId: string;
  options: PollOption[];
  multiple: boolean;
  hideTotals: boolean;
  /** ISO time voting closes, or null for a poll that never closes. */
  expiresAt: string | null;
  /** Total votes over all options (a multiple-choice voter counts once per choice). */
  votesCount: number;
  /** Distinct voters. */
  votersCount: number;
  /** Set once the expiry has been handled (voters and author notified). */
  closedAt: string | null;
  createdAt: string;
}

export interface PollVote extends Edge {
  /** Indexes into the poll's options. */
  choices: number[];
}

export function pollExpired(poll: Poll, now: Date): boolean {
  return poll.expiresAt !== null && Date.parse(poll.expiresAt) <= now.getTime();
}
