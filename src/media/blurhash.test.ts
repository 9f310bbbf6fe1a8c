import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { decode } from "blurhash";
import { BLUE, RED, solidPng } from "../../test/helpers/images.ts";
import { blurhashOf } from "./blurhash.ts";

describe("blurhashOf", () => {
  it("sketches the image's colour with 4×4 components", async () => {
    const red = await blurhashOf(await solidPng(300, 200, RED));
    const blue = await blurhashOf(await solidPng(300, 200, BLUE));
    assert.equal(red.length, 36);
    assert.notEqual(red, blue);
    const pixels = decode(red, 4, 4);
    assert.ok((pixels[0] ?? 0) > 200 && (pixels[2] ?? 255) < 50, "decodes back to red");
  });
});
