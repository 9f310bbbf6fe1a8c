import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
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

  it("removes them when the bench is interrupted while it measures", async () => {
    const root = await mkdtemp(join(tmpdir(), "wren-removal-test-"));
    try {
      const data = join(root, "data");
      await mkdir(data);
      await writeFile(join(data, "1.json"), "{}");
      // Registers, says so, then waits as a long measurement would, until SIGINT arrives.
      const script = `
        import { removeAtExit } from ${JSON.stringify(removal)};
        removeAtExit(${JSON.stringify(data)});
        process.stdout.write("ready");
        setInterval(() => {}, 1000);
      `;
      const child = spawn(process.execPath, ["--input-type=module", "-e", script]);
      await once(child.stdout, "data");
      assert.equal(existsSync(data), true, "kept while the bench runs");
      child.kill("SIGINT");
      const [code] = await once(child, "exit");
      assert.equal(code, 130);
      assert.equal(existsSync(data), false, "removed on the interrupt");
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
