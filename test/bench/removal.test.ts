import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";

const removal = new URL("../../bench/lib/removal.ts", import.meta.url).pathname;

describe("removeAtExit", () => {
  it("keeps the directories while the process runs and removes them, files and all, when it exits", async () => {
    const root = await mkdtemp(join(tmpdir(), "wren-removal-test-"));
    try {
      const first = join(root, "first");
      const second = join(root, "second");
      for (const dir of [first, second]) {
        await mkdir(join(dir, "records"), { recursive: true });
        await writeFile(join(dir, "records", "1.json"), "{}");
      }
      // A bench process in small: it registers both, looks whether they are still there (what
      // its next measurement would see), then ends.
      const script = `
        import { existsSync } from "node:fs";
        import { removeAtExit } from ${JSON.stringify(removal)};
        removeAtExit(${JSON.stringify(first)});
        removeAtExit(${JSON.stringify(second)});
        process.stdout.write(JSON.stringify([existsSync(${JSON.stringify(first)}), existsSync(${JSON.stringify(second)})]));
      `;
      const child = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
        encoding: "utf8",
      });
      assert.equal(child.status, 0, child.stderr);
      assert.deepEqual(JSON.parse(child.stdout), [true, true], "still there before the exit");
      assert.equal(existsSync(first), false, "the first is gone after the exit");
      assert.equal(existsSync(second), false, "the second is gone after the exit");
      assert.equal(existsSync(root), true, "nothing else is removed");
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
