// After a restart, the clients retry the posts the kill cut off, with the same Idempotency-Key
// (what the apps do after a timeout). Each retry must be answered, and each post must exist
// exactly once on disk, as the status answered: a duplicate would have been federated.

import type { Scan } from "./checks.ts";
import type { Ledger } from "./ledger.ts";

interface StatusFile {
  id: string;
  accountId: string;
  text: string;
}

/** Retries every pending post against the running server; answers the problems found. */
export async function retryCutOffPosts(url: string, ledger: Ledger): Promise<string[]> {
  const problems: string[] = [];
  for (const pending of ledger.pendingPosts) {
    const res = await fetch(`${url}/api/v1/statuses`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${pending.token}`,
        "content-type": "application/json",
        "idempotency-key": pending.key,
      },
      body: JSON.stringify(pending.params),
    });
    const body = (await res.json()) as { id: string; poll: { id: string } | null };
    if (res.status !== 200) {
      problems.push(`retry of "${pending.params.status}" → ${res.status}`);
      continue;
    }
    ledger.retried++;
    ledger.acknowledged++;
    ledger.statuses.set(body.id, {
      accountId: pending.accountId,
      text: pending.params.status,
      deleted: { present: false, certain: true },
      pollId: body.poll?.id ?? null,
    });
  }
  return problems;
}

/** Each retried post stored exactly once, as the status the retry answered. */
export function checkRetriedOnce(scan: Scan, ledger: Ledger): string[] {
  const byText = new Map<string, string[]>();
  for (const [path, record] of scan.files) {
    if (!path.startsWith("statuses/")) continue;
    const status = record as StatusFile;
    byText.set(status.text, [...(byText.get(status.text) ?? []), status.id]);
  }
  const problems: string[] = [];
  for (const pending of ledger.pendingPosts) {
    const ids = byText.get(pending.params.status) ?? [];
    if (ids.length !== 1) {
      problems.push(`"${pending.params.status}" stored ${ids.length} times (${ids.join(", ")})`);
    }
  }
  ledger.pendingPosts = [];
  return problems;
}
