// The mail port as services see it: one plain-text message to one address. The SMTP driver is
// in src/mail/; services never send inline in a request, only from a job (send-account-mail.ts),
// so a slow or failing mail server delays nothing and a failed send is retried.

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  /** Hands the message to the mail server; rejects when it was not accepted. */
  send(message: MailMessage): Promise<void>;
}
