// The start-up failures `wren serve` explains. Both a privileged port and an unwritable data
// directory fail with EACCES; the message must tell them apart (it once blamed the port for a
// data directory the server's user could not write). The errors are shaped as Node's own (code,
// syscall, path): a real EACCES cannot be had as root, which CI runs as, and a child run as
// another user cannot reach a checkout under a private directory.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { StorageUnavailableError } from "../domain/errors.ts";
import { explainStartError } from "./start-errors.ts";

const config = { host: "127.0.0.1", port: 80, dataDir: "/srv/wren data" };

function errnoError(code: string, syscall: string, path?: string): NodeJS.ErrnoException {
  const where = path === undefined ? "" : ` '${path}'`;
  return Object.assign(new Error(`${code}: failed, ${syscall}${where}`), { code, syscall, path });
}

function messageOf(error: unknown): string {
  const explained = explainStartError(error, config);
  assert.ok(explained instanceof Error);
  return explained.message;
}

describe("explainStartError", () => {
  it("names the data directory's file and the fix, not the port, for a file it cannot write", () => {
    const stderr = messageOf(errnoError("EACCES", "mkdir", "/srv/wren data/statuses"));
    assert.doesNotMatch(stderr, /port above 1023/);
    assert.match(stderr, /^Cannot use \/srv\/wren data\/statuses: permission denied/);
    assert.match(stderr, /chown -R <that user> '\/srv\/wren data' && chmod -R u\+rwX/);
  });

  it("says the same for the storage's own refusal of a data file (EACCES, EPERM)", () => {
    for (const code of ["EACCES", "EPERM"]) {
      const refused = new StorageUnavailableError(code, "/srv/wren data/kv/x.json", null);
      const stderr = messageOf(refused);
      assert.match(stderr, /^Cannot use \/srv\/wren data\/kv\/x\.json: permission denied/);
      assert.doesNotMatch(stderr, /port/);
    }
  });

  it("names the data directory when the error names no file", () => {
    assert.match(messageOf(errnoError("EACCES", "open")), /^Cannot use \/srv\/wren data:/);
  });

  it("blames the port only when the bind itself was refused", () => {
    assert.equal(
      messageOf(errnoError("EACCES", "listen")),
      "Cannot listen on 127.0.0.1:80: permission denied (use a port above 1023)",
    );
  });

  it("explains a port in use and an address not on this machine", () => {
    assert.match(messageOf(errnoError("EADDRINUSE", "listen")), /the port is in use/);
    assert.match(messageOf(errnoError("EADDRNOTAVAIL", "listen")), /no such address here/);
  });

  it("passes any other error through unchanged", () => {
    const other = errnoError("ENOENT", "open", "/x");
    assert.equal(explainStartError(other, config), other);
  });
});
