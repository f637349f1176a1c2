// The local mail catcher (maildev@2.2.1): SMTP on :54325, web UI and JSON API on :54324.
export interface MailCatcher {
  close(): Promise<void>;
}

export async function startMailCatcher(_opts: {
  host: string;
  webPort: number;
  smtpPort: number;
}): Promise<MailCatcher> {
  return { async close() {} };
}
