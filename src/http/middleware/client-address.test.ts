import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { throttleableAddress } from "./client-address.ts";

describe("throttleableAddress", () => {
  it("keeps IPv4 addresses and unwraps IPv4-mapped IPv6 ones", () => {
    assert.equal(throttleableAddress("203.0.113.7"), "203.0.113.7");
    assert.equal(throttleableAddress("::ffff:203.0.113.7"), "203.0.113.7");
    assert.equal(throttleableAddress("::FFFF:127.0.0.1"), "127.0.0.1");
  });

  it("counts a whole IPv6 /64 as one caller, however the address is written", () => {
    const expected = "2001:db8:a:b::/64";
    assert.equal(throttleableAddress("2001:db8:a:b::1"), expected);
    assert.equal(throttleableAddress("2001:0DB8:000a:000b:1:2:3:4"), expected);
    assert.equal(throttleableAddress("2001:db8:a:b:ffff::"), expected);
    assert.equal(throttleableAddress("2001:db8:a:b::1%eth0"), expected);
    assert.notEqual(throttleableAddress("2001:db8:a:c::1"), expected);
  });

  it("fills the groups a :: leaves out, before and after the prefix", () => {
    assert.equal(throttleableAddress("::1"), "0:0:0:0::/64");
    assert.equal(throttleableAddress("2001:db8::1"), "2001:db8:0:0::/64");
    assert.equal(throttleableAddress("fe80::1:2:3:4"), "fe80:0:0:0::/64");
    assert.equal(throttleableAddress("64:ff9b::192.0.2.1"), "64:ff9b:0:0::/64");
    assert.equal(throttleableAddress("1:2:3::4:5:192.0.2.1"), "1:2:3:0::/64");
  });

  it("passes through what is not an address", () => {
    assert.equal(throttleableAddress("local"), "local");
  });

  it("answers an address asked again as the first time (its counted form is kept)", () => {
    for (let i = 0; i < 3; i++) {
      assert.equal(throttleableAddress("2001:db8:a:b::1%eth0"), "2001:db8:a:b::/64");
      assert.equal(throttleableAddress("::ffff:203.0.113.7"), "203.0.113.7");
      assert.equal(throttleableAddress("203.0.113.8"), "203.0.113.8");
    }
  });
});
