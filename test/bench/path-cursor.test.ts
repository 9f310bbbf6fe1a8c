// Each round of a write probe is a new load process that begins at its first path; the cursor
// makes the next one begin where the last stopped, so no round re-favourites earlier targets.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { PathCursors, rotated } from "../../bench/lib/path-cursor.ts";

const paths = ["/a", "/b", "/c", "/d", "/e"];

describe("write probes' path cursors", () => {
  it("rotates the paths to start at an offset, each path once, wrapping past the end", () => {
    assert.deepEqual(rotated(paths, 0), paths);
    assert.deepEqual(rotated(paths, 2), ["/c", "/d", "/e", "/a", "/b"]);
    assert.deepEqual(rotated(paths, 7), ["/c", "/d", "/e", "/a", "/b"]);
    assert.deepEqual(rotated([], 3), []);
  });

  it("starts each load of a probe after the requests of the loads before it", () => {
    const cursors = new PathCursors();
    const probe = {};
    assert.deepEqual(cursors.paths(probe, paths), paths);
    cursors.advance(probe, 3);
    assert.deepEqual(cursors.paths(probe, paths)[0], "/d");
    cursors.advance(probe, 1);
    assert.deepEqual(cursors.paths(probe, paths)[0], "/e");
    // Another probe keeps its own place.
    assert.deepEqual(cursors.paths({}, paths)[0], "/a");
  });

  it("starts loads run at once against several servers apart", () => {
    const cursors = new PathCursors();
    const probe = {};
    cursors.advance(probe, 1);
    assert.equal(cursors.paths(probe, paths, 0, 2)[0], "/b");
    assert.equal(cursors.paths(probe, paths, 1, 2)[0], "/d");
  });
});
