// The cross-record checks of `wren doctor`: poll totals against votes, and the unique indexes
// (usernames regardless of case, ActivityPub ids), on records as the stores load them.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { makeAccount, makeStatus } from "../../contract/fixtures.ts";
import { RecordFacts } from "./record-facts.ts";

const poll = (votesCount: number, votersCount: number, options: number[]) => ({
  id: "70",
  statusId: "10",
  accountId: "1",
  options: options.map((votes, i) => ({ title: `o${i}`, votesCount: votes })),
  votesCount,
  votersCount,
});
const vote = (id: string, accountId: string, choices: number[]) => ({
  id,
  accountId,
  targetId: "70",
  createdAt: "2026-01-01T00:00:00.000Z",
  choices,
});

function facts(): RecordFacts {
  const f = new RecordFacts("/data");
  f.note("accounts", "1.json", makeAccount({ id: "1", username: "alice" }));
  f.note("accounts", "2.json", makeAccount({ id: "2", username: "bob" }));
  f.note("statuses", "1/10.json", makeStatus({ id: "10", accountId: "1" }));
  f.note("poll-votes", "80.json", vote("80", "1", [0, 1]));
  f.note("poll-votes", "81.json", vote("81", "2", [1]));
  return f;
}

describe("doctor's record checks", () => {
  it("finds nothing wrong with a poll whose totals match its votes", () => {
    const f = facts();
    f.note("polls", "70.json", poll(3, 2, [1, 2]));
    assert.deepEqual(f.check(), []);
  });

  it("reports a poll whose stored totals differ from its votes", () => {
    const f = facts();
    f.note("polls", "70.json", poll(2, 1, [1, 1]));
    const [problem, ...rest] = f.check();
    assert.deepEqual(rest, []);
    assert.equal(problem?.kind, "counter");
    assert.equal(problem?.path, "/data/polls/70.json");
    assert.match(problem?.message ?? "", /stores 2 votes by 1 voters .* count 3 by 2/);
  });

  it("takes a quote's acting side for a status, and reports one whose status is missing", () => {
    const f = facts();
    f.note("polls", "70.json", poll(3, 2, [1, 2]));
    f.note("statuses", "2/11.json", makeStatus({ id: "11", accountId: "2" }));
    const quote = (id: string, from: string) => ({
      id,
      accountId: from,
      targetId: "10",
      createdAt: "2026-01-01T00:00:00.000Z",
    });
    f.note("quotes", "90.json", quote("90", "11"));
    assert.deepEqual(f.check(), []);
    f.note("quotes", "91.json", quote("91", "12"));
    const [problem, ...rest] = f.check();
    assert.deepEqual(rest, []);
    assert.equal(problem?.kind, "orphan");
    assert.match(problem?.message ?? "", /quotes entry of status 12, which is missing/);
  });

  it("reports two accounts with one username regardless of case, and shared ActivityPub ids", () => {
    const f = facts();
    f.note("accounts", "3.json", makeAccount({ id: "3", username: "ALICE" }));
    f.note("statuses", "2/11.json", makeStatus({ id: "11", accountId: "2", uri: "https://x/1" }));
    f.note("statuses", "2/12.json", makeStatus({ id: "12", accountId: "2", uri: "https://x/1" }));
    const problems = f.check().filter((p) => p.kind === "index");
    assert.deepEqual(
      problems.map((p) => p.path),
      ["/data/accounts/3.json", "/data/statuses/2/12.json"],
    );
    assert.match(problems[0]?.message ?? "", /username alice@ with \/data\/accounts\/1\.json/);
  });
});
