// Reaching the server over its Unix socket: a `host` query parameter naming a directory (libpq's
// URL form) becomes the client's socket option instead of a parameter sent to the server.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import postgres from "postgres";
import { connectPostgres, socketOf } from "./connect.ts";
import { ADMIN_URL } from "./testing/temp-database.ts";

describe("postgres connection URL", () => {
  it("takes a socket directory out of the URL, leaving other URLs alone", () => {
    assert.deepEqual(socketOf("postgres://wren@localhost/wren?host=/var/run/postgresql"), {
      url: "postgres://wren@localhost/wren",
      socketDir: "/var/run/postgresql",
    });
    assert.deepEqual(socketOf("postgres://wren@localhost/wren?host=%2Frun%2Fpg&sslmode=disable"), {
      url: "postgres://wren@localhost/wren?sslmode=disable",
      socketDir: "/run/pg",
    });
    for (const url of ["postgres://wren@db.example:5432/wren", "postgres://wren@x/y?host=db"]) {
      assert.deepEqual(socketOf(url), { url, socketDir: undefined });
    }
  });

  it("connects through the server's own socket directory", async () => {
    const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
    const [row] = await admin<
      { dirs: string }[]
    >`select current_setting('unix_socket_directories') as dirs`;
    await admin.end();
    const dir = row?.dirs.split(",")[0]?.trim() ?? "";
    assert.ok(dir.startsWith("/"), `the server listens on a socket (${dir})`);
    const url = new URL(ADMIN_URL);
    url.searchParams.set("host", dir);
    const sql = connectPostgres({ url: url.toString(), poolMax: 1 });
    try {
      const [seen] = await sql<{ addr: string | null }[]>`select inet_server_addr() as addr`;
      // No server address: the connection is not over TCP.
      assert.equal(seen?.addr, null);
    } finally {
      await sql.end();
    }
  });
});
