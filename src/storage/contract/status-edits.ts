// Storage contract: earlier versions of edited statuses.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type ContractContext, ids } from "./context.ts";
import { makeStatusEdit } from "./fixtures.ts";

export function statusEditContract(t: ContractContext): void {
  describe("status edits", () => {
    it("lists a status's versions oldest first (by id), and replaces on a second put", async () => {
      const edits = t.storage.statusEdits;
      assert.deepEqual(await edits.listByStatus("10"), []);
      const first = makeStatusEdit({ id: "3", statusId: "10", text: "one" });
      await edits.put(makeStatusEdit({ id: "100", statusId: "10" }));
      await edits.put(first);
      await edits.put(makeStatusEdit({ id: "20", statusId: "10" }));
      await edits.put(makeStatusEdit({ id: "4", statusId: "11" }));
      assert.deepEqual(ids(await edits.listByStatus("10")), ["3", "20", "100"]);
      assert.deepEqual((await edits.listByStatus("10"))[0], first);
      assert.deepEqual(ids(await edits.listByStatus("11")), ["4"]);

      await edits.put({ ...first, text: "changed" });
      assert.equal((await edits.listByStatus("10"))[0]?.text, "changed");
      assert.equal((await edits.listByStatus("10")).length, 3);
    });

    it("deletes every version of one status, and only those", async () => {
      const edits = t.storage.statusEdits;
      await edits.put(makeStatusEdit({ id: "3", statusId: "10" }));
      await edits.put(makeStatusEdit({ id: "20", statusId: "10" }));
      await edits.put(makeStatusEdit({ id: "4", statusId: "11" }));
      assert.equal(await edits.deleteByStatus("10"), 2);
      assert.deepEqual(await edits.listByStatus("10"), []);
      assert.deepEqual(ids(await edits.listByStatus("11")), ["4"]);
      assert.equal(await edits.deleteByStatus("10"), 0);
    });
  });
}
