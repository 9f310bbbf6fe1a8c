// Which errors count as the storage failing: json-file's "cannot store" and the errors of a
// real PostgreSQL server and connection, never an error about remote input.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import postgres from "postgres";
import { StorageUnavailableError } from "../domain/errors.ts";
import { isStorageFailure } from "./failure.ts";
import { ADMIN_URL } from "./postgres/testing/temp-database.ts";

describe("isStorageFailure", () => {
  it("knows json-file's cannot-store error, and not errors of remote input", () => {
    const enospc = Object.assign(new Error("ENOSPC"), { code: "ENOSPC" });
    assert.equal(isStorageFailure(new StorageUnavailableError("ENOSPC", "/x", enospc)), true);
    assert.equal(isStorageFailure(new TypeError("fetch failed")), false);
    assert.equal(isStorageFailure(new SyntaxError("Unexpected token")), false);
    assert.equal(isStorageFailure(undefined), false);
  });

  it("knows a PostgreSQL server's error and a connection that has ended", async () => {
    const sql = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
    const server = await sql`select no_such_column`.catch((error: unknown) => error);
    assert.equal(isStorageFailure(server), true);
    await sql.end();
    const ended = await sql`select 1`.catch((error: unknown) => error);
    assert.equal(isStorageFailure(ended), true);
  });
});
