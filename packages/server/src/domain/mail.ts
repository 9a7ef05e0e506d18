/**
 * Outgoing e-mail (docs/operations.md "E-mail"): with `SMTP_URL` set, one nodemailer transport for the
 * service — survey launch messages and reminders (domain/surveys/mailer.ts), organization invitations
 * and password resets (domain/identity/reset-mail.ts). Without it e-mail is off and nothing is sent.
 */
import nodemailer from 'nodemailer';
import type { Config } from '../config.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/** The SMTP sender of `SMTP_URL`, or null when e-mail is off. */
export function smtpMailer(config: Config): Mailer | null {
  if (!config.surveys.smtpUrl) return null;
  const transport = nodemailer.createTransport(config.surveys.smtpUrl);
  return {
    async send(m) {
      await transport.sendMail({ from: config.surveys.mailFrom, to: m.to, subject: m.subject, text: m.text });
    },
    close() {
      transport.close();
    },
  };
}
