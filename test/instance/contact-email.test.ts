// The instance's contact address (`email` of /api/v1/instance, `contact.email` of v2): the
// setting, else the longest-standing admin's email, else "" (the field is required by the entity).

import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { createTestUser } from "../helpers/accounts.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

async function contactEmails(server: TestServer) {
  const v1 = (await (await server.request("/api/v1/instance")).json()) as Record<string, unknown>;
  const v2 = (await (await server.request("/api/v2/instance")).json()) as {
    contact: Record<string, unknown>;
  };
  return { v1: v1.email, v1Has: "email" in v1, v2: v2.contact.email, v2Has: "email" in v2.contact };
}

describe("the instance's contact email", () => {
  const servers: TestServer[] = [];
  const start = async (env: Record<string, string> = {}) => {
    const server = await startTestServer(env);
    servers.push(server);
    return server;
  };
  after(() => Promise.all(servers.map((s) => s.close())));

  it("is the configured address", async () => {
    const server = await start({ WREN_CONTACT_EMAIL: "ops@wren.example" });
    await createTestUser(server, "boss", { role: "admin", email: "boss@mail.example" });
    const emails = await contactEmails(server);
    assert.equal(emails.v1, "ops@wren.example");
    assert.equal(emails.v2, "ops@wren.example");
  });

  it("is the longest-standing active admin's email when none is configured", async () => {
    const server = await start();
    await createTestUser(server, "someone", { email: "someone@mail.example" });
    await createTestUser(server, "first", { role: "admin", email: "first@mail.example" });
    await createTestUser(server, "second", { role: "admin", email: "second@mail.example" });
    const emails = await contactEmails(server);
    assert.equal(emails.v1, "first@mail.example");
    assert.equal(emails.v2, "first@mail.example");
  });

  it("is an empty string, still present, without a setting or an admin", async () => {
    const server = await start();
    await createTestUser(server, "someone");
    assert.deepEqual(await contactEmails(server), {
      v1: "",
      v1Has: true,
      v2: "",
      v2Has: true,
    });
  });
});
