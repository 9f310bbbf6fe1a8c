// Tests only: node:test hooks for the usual set-ups on a throw-away database, registered in the
// calling describe block. Read the returned getters inside tests (the hooks replace the values).

import assert from "node:assert/strict";
import { after, afterEach, before, beforeEach } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import type { Storage } from "../../ports.ts";
import { connectPostgres, type Sql } from "../connect.ts";
import { openPostgresStorage } from "../index.ts";
import { createTempDatabase, type TempDatabase } from "./temp-database.ts";

export interface TwoProcesses {
  readonly database: TempDatabase;
  /** Two storages with a pool each on one database, emptied before each test: two processes. */
  readonly a: Storage;
  readonly b: Storage;
}

export function twoProcessesOnOneDatabase(poolMax = 4): TwoProcesses {
  let database: TempDatabase | undefined;
  let a: Storage | undefined;
  let b: Storage | undefined;
  before(async () => {
    database = await createTempDatabase();
  });
  beforeEach(async () => {
    await database?.empty();
    const url = (database as TempDatabase).url;
    a = await openPostgresStorage({ url, poolMax });
    b = await openPostgresStorage({ url, poolMax });
  });
  afterEach(async () => {
    await a?.close();
    await b?.close();
  });
  after(async () => {
    await database?.drop();
  });
  return {
    get database() {
      return database as TempDatabase;
    },
    get a() {
      return a as Storage;
    },
    get b() {
      return b as Storage;
    },
  };
}

export interface RawDatabase {
  readonly database: TempDatabase;
  /** A pool on the database, emptied before each test. */
  readonly sql: Sql;
}

export function rawDatabase(poolMax: number): RawDatabase {
  let database: TempDatabase | undefined;
  let sql: Sql | undefined;
  before(async () => {
    database = await createTempDatabase();
    sql = connectPostgres({ url: database.url, poolMax });
  });
  after(async () => {
    await sql?.end();
    await database?.drop();
  });
  beforeEach(() => database?.empty());
  return {
    get database() {
      return database as TempDatabase;
    },
    get sql() {
      return sql as Sql;
    },
  };
}

/**
 * Polls `read` until `done` holds of its answer (a change notification's trip to another
 * process), or fails after about two seconds.
 */
export async function eventually<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
): Promise<T> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const value = await read();
    if (done(value)) return value;
    await sleep(10);
  }
  return assert.fail("the other process never saw the write");
}
