// The committed test CA and server certificate (test/fixtures/tls/), so that test instances can
// serve HTTPS and this process's global fetch (which Fedify uses too) accepts them.

import { readFileSync } from "node:fs";
import tls from "node:tls";
import { fileURLToPath } from "node:url";

const dir = fileURLToPath(new URL("../fixtures/tls/", import.meta.url));

export const TEST_CA_FILE = `${dir}ca.pem`;

/** The environment that makes a Wren instance serve HTTPS with the test certificate. */
export const TEST_TLS_ENV: Readonly<Record<string, string>> = {
  WREN_TLS_CERT: `${dir}server-cert.pem`,
  WREN_TLS_KEY: `${dir}server-key.pem`,
};

let trusted = false;

/**
 * Adds the test CA to this process's default trust store (Node 24), which global fetch and
 * node:https use for connections made afterwards. Only this test process is affected.
 */
export function trustTestCa(): void {
  if (trusted) return;
  const ca = readFileSync(TEST_CA_FILE, "utf8");
  tls.setDefaultCACertificates([...tls.getCACertificates("default"), ca]);
  trusted = true;
}
