// Status puts on PostgreSQL, gathered (ADR 0062; migration 0052): a put
// asked for while this process's previous put statement runs waits for it and goes with the
// others asked meanwhile in the next statement (gathered-statements.ts), each with the job it
// carries (an event's record, outbox.ts). A lone put goes at once, as one `wren_put_status`.
//
// Why: a post locks its author's counters row (the counter trigger) and, through its change
// NOTIFYs, the notification queue, both until its commit is flushed to disk. Posts by one author,
// and every notifying commit of the database, followed each other one WAL flush at a time; 50
// clients posting spent most of their time waiting for those locks. Gathered, the posts of a
// statement share one commit, one flush, one hold of each lock and one round trip. Nothing is
// answered before its statement committed, so what is durable when is unchanged per put.
//
// A gathered statement that fails fails every put in it, whatever put was at fault; its puts are
// then sent again one by one when the server refused it (nothing of a failed statement was
// stored), so each is answered as it would have been alone; a lost connection fails them all.
//
// A new remote status's put (`fresh`, ADR 0080; migration 0057) is stored only if no status
// holds its uri, and answers the one that does: the unique index settles racing ingests.

import type postgres from "postgres";
import type { Job } from "../../domain/job.ts";
import type { Status } from "../../domain/status.ts";
import type { Sql } from "./connect.ts";
import { gathered } from "./gathered-statements.ts";
import { jobsInsert } from "./job-store.ts";
import { jsonb, jsonText } from "./jsonb.ts";

/** What a put answers: the tags its status was listed under before, its author's counters. */
export interface PutRow {
  untagged: string[];
  author_statuses: number;
  author_last_at: string | null;
  author_followers: number;
  author_following: number;
  /** The version of the author's statuses counters (migration 0049): orders the puts' answers. */
  author_version: string;
  /** The status's author before the put, when another account. */
  former_author: string | null;
  /** A fresh put's uri held by another status: that status's id and record (nothing stored). */
  taken_key: string | null;
  taken_json: string | null;
}

/** One put: the status, its tags as stored, and the job it carries if any. */
export interface StatusPut {
  status: Status;
  /** Lower-cased and distinct. */
  tags: string[];
  /** The hashtag timelines it is listed in (empty unless a public original). */
  listedTags: string[];
  hasMedia: boolean;
  job: Job | undefined;
  /** A new status, stored unless its uri is taken (wren_put_new_status). */
  fresh: boolean;
}

/** The most puts one statement takes (a statement of them is one transaction). */
const PUTS_AT_MOST = 100;

const ANSWER =
  "untagged, author_statuses, author_last_at, author_followers, author_following, author_version, former_author";
/** What only a fresh put answers (wren_put_new_status). */
const TAKEN = "taken_key, taken_json";
/** A put alone: its function, and what it answers beside ANSWER. */
const ALONE = {
  fresh: { call: "wren_put_new_status", taken: TAKEN },
  plain: { call: "wren_put_status", taken: "null::text as taken_key, null::text as taken_json" },
};

/** An error the server answered (a statement's), not the connection's (postgres.js). */
const answeredByServer = (error: unknown) =>
  (error as { name?: unknown } | null)?.name === "PostgresError";

/** `put` answers once its statement committed; rejects as that statement did when sent alone. */
export function createStatusPuts(sql: Sql): (put: StatusPut) => Promise<PutRow> {
  /** A put alone: migration 0049's function (0057's when fresh), the job in the same statement. */
  const alone = async ({ status, tags, listedTags, hasMedia, job, fresh }: StatusPut) => {
    const { call, taken } = fresh ? ALONE.fresh : ALONE.plain;
    const [row] = await sql<PutRow[]>`
      ${job ? sql`with job as (${jobsInsert(sql, [job])})` : sql``}
      select ${sql.unsafe(ANSWER)}, ${sql.unsafe(taken)}
      from ${sql.unsafe(call)}(${status.id}::int8, ${status.accountId}::int8,
        ${status.uri}, ${status.visibility}, ${status.local}, ${status.deleted}, ${hasMedia},
        ${status.inReplyToId}::int8, ${status.inReplyToAccountId}::int8,
        ${status.reblogOfId}::int8, ${tags}::text[], ${jsonb(sql, status)},
        ${listedTags}::text[])`;
    if (row === undefined) throw new Error(`The put of status ${status.id} answered nothing`);
    return row;
  };

  /** Several puts in one statement (migrations 0052, 0057), answered in the order asked. */
  const together = async (puts: readonly StatusPut[]) => {
    const jobs = puts.flatMap((p) => (p.job ? [p.job] : []));
    const column = <T>(f: (p: StatusPut) => T) =>
      sql.array(puts.map(f) as postgres.SerializableParameter[]);
    const flag = (f: (p: StatusPut) => boolean) => column((p) => (f(p) ? "t" : "f"));
    const rows = await sql<(PutRow & { pos: number })[]>`
      ${jobs.length > 0 ? sql`with job as (${jobsInsert(sql, jobs)})` : sql``}
      select pos, ${sql.unsafe(ANSWER)}, ${sql.unsafe(TAKEN)}
      from wren_put_statuses(
        ${column((p) => p.status.id)}::text[]::int8[],
        ${column((p) => p.status.accountId)}::text[]::int8[],
        ${column((p) => p.status.uri)}::text[],
        ${column((p) => p.status.visibility)}::text[],
        ${flag((p) => p.status.local)}::text[]::bool[],
        ${flag((p) => p.status.deleted)}::text[]::bool[],
        ${flag((p) => p.hasMedia)}::text[]::bool[],
        ${column((p) => p.status.inReplyToId)}::text[]::int8[],
        ${column((p) => p.status.inReplyToAccountId)}::text[]::int8[],
        ${column((p) => p.status.reblogOfId)}::text[]::int8[],
        ${column((p) => JSON.stringify(p.tags))}::text[]::jsonb[],
        ${column((p) => jsonText(p.status))}::text[]::jsonb[],
        ${column((p) => JSON.stringify(p.listedTags))}::text[]::jsonb[],
        ${flag((p) => p.fresh)}::text[]::bool[])`;
    const answers = new Array<PutRow | undefined>(puts.length);
    for (const { pos, ...row } of rows) answers[pos - 1] = row;
    return answers.map((row, i) => {
      if (row === undefined)
        throw new Error(`The put of status ${puts[i]?.status.id} answered nothing`);
      return row;
    });
  };

  type Settled = { row: PutRow } | { error: unknown };
  const send = gathered<StatusPut, Settled>(
    async (_group, puts) => {
      if (puts.length > 1) {
        try {
          return (await together(puts)).map((row) => ({ row }));
        } catch (error) {
          // The connection's failure (not the server's answer) is every put's: sent one by one
          // they would each wait for it again.
          if (!answeredByServer(error)) return puts.map(() => ({ error }));
          // Nothing of the statement was stored: each put again, alone, answered as it is.
        }
      }
      const settled: Settled[] = [];
      for (const put of puts) {
        settled.push(
          await alone(put).then(
            (row) => ({ row }),
            (error: unknown) => ({ error }),
          ),
        );
      }
      return settled;
    },
    { most: PUTS_AT_MOST },
  );
  return async (put) => {
    const settled = await send("statuses", put);
    if ("error" in settled) throw settled.error;
    return settled.row;
  };
}
