// A real SMTP server on loopback (the `smtp-server` package) that keeps every mail it receives,
// for the tests of the mails Wren sends (sign-up confirmation, password reset).

import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  to: string[];
  raw: string;
}

export interface TestSmtp {
  url: string;
  mails: ReceivedMail[];
  /** The next mail to `address` not yet returned (waits for it). */
  nextMailTo(address: string): Promise<ReceivedMail>;
  /** Resolves once `count` mails in all have been refused. */
  refusals(count: number): Promise<void>;
  close(): Promise<void>;
}

/** `refuseFirst`: that many mails are answered 451 (try again later), as a busy server does. */
export async function startTestSmtp(options: { refuseFirst?: number } = {}): Promise<TestSmtp> {
  let toRefuse = options.refuseFirst ?? 0;
  let refused = 0;
  const mails: ReceivedMail[] = [];
  const taken = new Set<ReceivedMail>();
  const waiters: (() => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        if (toRefuse > 0) {
          toRefuse -= 1;
          refused += 1;
          for (const wake of waiters.splice(0)) wake();
          callback(Object.assign(new Error("Try again later"), { responseCode: 451 }));
          return;
        }
        mails.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        for (const wake of waiters.splice(0)) wake();
        callback();
      });
    },
  });
  server.listen(0, "127.0.0.1");
  await once(server.server, "listening");
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    async nextMailTo(address) {
      for (;;) {
        const mail = mails.find((m) => !taken.has(m) && m.to.includes(address));
        if (mail) {
          taken.add(mail);
          return mail;
        }
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
    async refusals(count) {
      while (refused < count) await new Promise<void>((resolve) => waiters.push(resolve));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The first link of a plain-text mail that starts with `prefix` (quoted-printable undone). */
export function linkIn(mail: ReceivedMail, prefix: string): string {
  const body = mail.raw.replace(/=\r?\n/g, "").replace(/=3D/g, "=");
  const start = body.indexOf(prefix);
  if (start < 0) throw new Error(`no link ${prefix} in the mail:\n${mail.raw}`);
  return body.slice(start).split(/\s/)[0] as string;
}
