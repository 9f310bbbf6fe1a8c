// The federation harness itself: instances serve HTTPS that this process (and so Fedify) trusts,
// Fedify's own WebFinger client finds their users, and an instance stopped and started again
// keeps its port, public URL and data.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { lookupWebFinger } from "@fedify/webfinger";
import {
  handle,
  type Instance,
  startFederation,
  type TestFederation,
  user,
} from "../../helpers/federation.ts";

describe("federation harness", () => {
  let federation: TestFederation;
  let a: Instance;
  let b: Instance;
  before(async () => {
    federation = await startFederation(2);
    [a, b] = federation.instances as [Instance, Instance];
    await user(b, "bob");
  });
  after(() => federation.close());

  it("runs instances on their own HTTPS origins and data directories", () => {
    assert.notEqual(a.port, b.port);
    assert.notEqual(a.dataDir, b.dataDir);
    for (const instance of [a, b]) {
      assert.equal(instance.url, `https://127.0.0.1:${instance.port}`);
      assert.equal(instance.wren.listenUrl, instance.url);
      assert.equal(instance.wren.ctx.settings.domain, instance.domain);
    }
  });

  it("lets Fedify's WebFinger client (HTTPS only) find a user of another instance", async () => {
    const jrd = await lookupWebFinger(`acct:${handle(b, "bob")}`, { allowPrivateAddress: true });
    const self = jrd?.links?.find((link) => link.rel === "self");
    assert.equal(self?.href, `${b.url}/users/bob`);
    const actor = await fetch(self.href, { headers: { accept: "application/activity+json" } });
    assert.equal(actor.status, 200);
    assert.equal(((await actor.json()) as { id: string }).id, `${b.url}/users/bob`);
  });

  it("starts a stopped instance again on the same port with the same data", async () => {
    await b.stop();
    await assert.rejects(fetch(`${b.url}/api/v1/instance`));
    await b.start();
    assert.equal(b.wren.listenUrl, `https://127.0.0.1:${b.port}`);
    const res = await b.request("/api/v1/accounts/lookup?acct=bob");
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { username: string }).username, "bob");
  });
});
