// The Mailer over SMTP (WREN_SMTP_URL), with nodemailer. One pooled transport per process, made
// with the first mail: nodemailer is loaded then, not by every process that might send one.

import type { Transporter } from "nodemailer";
import type { Mailer } from "../services/mail/mailer.ts";

export interface SmtpSettings {
  /** `smtp://user:pass@host:port` (STARTTLS when offered) or `smtps://…` (TLS from the start). */
  url: string;
  /** The From address, e.g. `Wren <notifications@social.example>`. */
  from: string;
}

export function createSmtpMailer(settings: SmtpSettings): Mailer {
  let transport: Promise<Transporter> | undefined;
  return {
    async send(message) {
      transport ??= import("nodemailer").then((m) => m.createTransport(settings.url));
      await (await transport).sendMail({
        from: settings.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
      });
    },
  };
}
