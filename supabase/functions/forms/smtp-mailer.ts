// The SMTP mail provider (self-hosted Supabase, the local stack's mail catcher), on nodemailer.
// Deno-only: imported by index.ts, never by the unit-tested modules.
import nodemailer from 'npm:nodemailer@6.10.1';
import { DELIVERY } from '../_shared/limits.ts';
import type { Mailer } from './mailer.ts';

export function createSmtpMailer(config: {
  host: string;
  port: number;
  secure: boolean;
  user: string | null;
  pass: string | null;
}): Mailer {
  return {
    async send(mail) {
      // A fresh connection per message: sends are rare, and a pooled socket would outlive the
      // request in an Edge Function worker.
      const transport = nodemailer.createTransport({
        host: config.host,
        port: config.port,
        secure: config.secure,
        auth: config.user ? { user: config.user, pass: config.pass ?? '' } : undefined,
        connectionTimeout: DELIVERY.sendTimeoutMs,
        greetingTimeout: DELIVERY.sendTimeoutMs,
        socketTimeout: DELIVERY.sendTimeoutMs,
        disableFileAccess: true,
        disableUrlAccess: true,
      });
      try {
        await transport.sendMail({
          from: mail.from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          replyTo: mail.replyTo ?? undefined,
          messageId: `<delivery-${mail.id}@tinyback.tools>`,
        });
      } finally {
        transport.close();
      }
    },
  };
}
