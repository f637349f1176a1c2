// Sends the stack's own mail (e.g. Auth's password-recovery e-mails) over real SMTP to the local
// mail catcher, as GoTrue does to Inbucket/Mailpit under `supabase start`.
import nodemailer from 'nodemailer';

export interface OutgoingMail {
  to: string;
  subject: string;
  html: string;
  /** Absent: the mail is the HTML alone (as GoTrue sends a templated mail). */
  text?: string;
}

/** The sender GoTrue uses by default for the local stack's mail. */
const DEFAULT_SENDER = 'Supabase Auth <admin@email.com>';

export async function sendMail(
  smtp: { host: string; port: number },
  mail: OutgoingMail,
): Promise<void> {
  // A fresh, unpooled transport per message keeps no sockets open that could delay shutdown.
  const transport = nodemailer.createTransport({
    host: smtp.host,
    port: smtp.port,
    secure: false,
    ignoreTLS: true,
    connectionTimeout: 5_000,
    greetingTimeout: 5_000,
    socketTimeout: 10_000,
  });
  try {
    await transport.sendMail({ from: DEFAULT_SENDER, ...mail });
  } finally {
    transport.close();
  }
}
