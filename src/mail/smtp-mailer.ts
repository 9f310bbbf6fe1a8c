// The Mailer over SMTP (WREN_SMTP_URL), with nodemailer. One pooled transport per process.

import { createTransport } from "nodemailer";
import type { Mailer } from "../services/mail/mailer.ts";

export interface SmtpSettings {
  /** `smtp://user:pass@host:port` (STARTTLS when offered) or `smtps://…` (TLS from the start). */
  url: string;
  /** The From address, e.g. `Wren <notifications@social.example>`. */
  from: string;
}

export function createSmtpMailer(settings: SmtpSettings): Mailer {
  const transport = createTransport(settings.url);
  return {
    async send(message) {
      await transport.sendMail({
        from: settings.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
      });
    },
  };
}
