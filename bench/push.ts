// `node bench/push.ts [--notifications N] [--subscriptions S]`: the Web Push scenario of
// `npm run bench` (bench/scenarios/push.ts) alone, with the CPU cost of each coding and of
// signing a VAPID JWT (which the sender reuses for an hour) besides.
// WREN_TEST_STORAGE=postgres runs the end-to-end part on a throw-away PostgreSQL database.

import { parseArgs } from "node:util";
import webpush from "web-push";
import { encryptionRate, measurePush } from "./scenarios/push.ts";

const { values } = parseArgs({
  options: {
    notifications: { type: "string", default: "500" },
    subscriptions: { type: "string", default: "4" },
  },
});

const rate = (name: string, perSecond: number) =>
  process.stdout.write(
    `${name}: ${perSecond.toFixed(0)}/s (${(1000 / perSecond).toFixed(2)} ms each)\n`,
  );
for (const coding of ["aes128gcm", "aesgcm"] as const) {
  rate(`encrypt (${coding})`, encryptionRate(2_000, coding));
}
const vapid = webpush.generateVAPIDKeys();
const started = performance.now();
for (let i = 0; i < 2_000; i++) {
  webpush.getVapidHeaders(
    "https://push.example",
    "mailto:admin@social.example",
    vapid.publicKey,
    vapid.privateKey,
    "aes128gcm",
  );
}
rate("sign a VAPID JWT", 2_000 / ((performance.now() - started) / 1000));

const result = await measurePush({
  notifications: Number(values.notifications),
  subscriptions: Number(values.subscriptions),
  encryptions: 2_000,
});
process.stdout.write(
  `end to end (${result.storage}, ${result.messages} messages to ${result.subscriptions} subscriptions, half aes128gcm): ` +
    `${result.perSecond.toFixed(0)} messages/s over ${result.connections} connections; encryption alone ${result.encryptPerSecond.toFixed(0)}/s\n`,
);
