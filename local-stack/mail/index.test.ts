// The mail catcher keeps messages raw until its API is asked: what the API answers must be what
// maildev itself stores (parsed fields, arrival order), and deleting all must drop waiting ones.
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clearMail, listMail } from '../../tests/support/mail.ts';
import { freePorts } from '../stack.ts';
import { startMailCatcher, type MailCatcher } from './index.ts';
import { sendMail } from './send.ts';

const HOST = '127.0.0.1';
let catcher: MailCatcher;
let smtp: { host: string; port: number };
let web: string;

/** Starts a catcher; on the given ports, as the stack restarts its own. */
async function start(ports?: { webPort: number; smtpPort: number }) {
  const [webPort, smtpPort] = ports ? [ports.webPort, ports.smtpPort] : await freePorts(2);
  catcher = await startMailCatcher({ host: HOST, webPort, smtpPort });
  smtp = { host: HOST, port: smtpPort };
  web = `http://${HOST}:${webPort}`;
}

beforeAll(() => start());
afterAll(() => catcher?.close());

describe('the mail catcher', () => {
  it('answers its JSON API with every caught message, parsed, in arrival order', async () => {
    await sendMail(smtp, {
      to: 'a@example.test',
      subject: 'First',
      text: 'one',
      html: '<p>one</p>',
    });
    await sendMail(smtp, {
      to: 'b@example.test',
      subject: 'Zweite ü',
      text: 'two',
      html: '<b>2</b>',
    });

    const mails = await listMail(web);
    expect(mails.map((m) => m.subject)).toEqual(['First', 'Zweite ü']);
    expect(mails[0]).toMatchObject({ text: 'one', to: [{ address: 'a@example.test' }] });
    expect(mails[1].html).toContain('<b>2</b>');

    const one = (await (await fetch(`${web}/email/${mails[1].id}`)).json()) as { subject: string };
    expect(one.subject).toBe('Zweite ü');
  });

  it('drops messages not yet looked at when all are deleted', async () => {
    await sendMail(smtp, { to: 'c@example.test', subject: 'Third', text: 'three', html: '3' });
    await clearMail(web);
    expect(await listMail(web)).toEqual([]);
    await sendMail(smtp, { to: 'd@example.test', subject: 'Fourth', text: 'four', html: '4' });
    expect((await listMail(web)).map((m) => m.subject)).toEqual(['Fourth']);
  });

  it('keeps what it accepted before a stop, as maildev keeps its store across a restart', async () => {
    await clearMail(web);
    await sendMail(smtp, { to: 'e@example.test', subject: 'Before stop', text: 'five', html: '5' });
    await catcher.close();
    await start({ webPort: Number(new URL(web).port), smtpPort: smtp.port });
    expect((await listMail(web)).map((m) => m.subject)).toEqual(['Before stop']);
  });

  it('serves, downloads and deletes a message kept across a stop it was unread at', async () => {
    await clearMail(web);
    const transport = nodemailer.createTransport({ ...smtp, secure: false, ignoreTLS: true });
    await transport.sendMail({
      from: 'a@example.test',
      to: 'i@example.test',
      subject: 'Unread at the stop',
      text: 'nine',
      attachments: [{ filename: 'note.txt', content: 'kept' }],
    });
    transport.close();
    // Stopped while the message waits raw, never looked at.
    await catcher.close();
    await start({ webPort: Number(new URL(web).port), smtpPort: smtp.port });
    const [kept] = await listMail(web);
    expect(kept?.subject).toBe('Unread at the stop');
    const source = await fetch(`${web}/email/${kept!.id}/source`, {
      signal: AbortSignal.timeout(5_000),
    });
    expect(source.status).toBe(200);
    expect(await source.text()).toContain('Subject: Unread at the stop');
    const download = await fetch(`${web}/email/${kept!.id}/download`, {
      signal: AbortSignal.timeout(5_000),
    });
    expect(await download.text()).toContain('Subject: Unread at the stop');
    const [file] = (kept as unknown as { attachments: { generatedFileName: string }[] })
      .attachments;
    const attachment = await fetch(
      `${web}/email/${kept!.id}/attachment/${file!.generatedFileName}`,
      {
        signal: AbortSignal.timeout(5_000),
      },
    );
    expect(await attachment.text()).toBe('kept');
    expect((await fetch(`${web}/email/${kept!.id}`, { method: 'DELETE' })).status).toBe(200);
    expect(await listMail(web)).toEqual([]);
    // Stopping again right after mail arrived, and once more with a read under way, is clean:
    // nothing is left to fail after the stop (vitest reports any such error).
    await sendMail(smtp, { to: 'j@example.test', subject: 'Last', text: '10', html: '10' });
    await catcher.close();
    await start({ webPort: Number(new URL(web).port), smtpPort: smtp.port });
    const [last] = await listMail(web);
    const reading = fetch(`${web}/email/${last!.id}/source`).catch(() => null);
    await catcher.close();
    await reading;
    await new Promise((resolve) => setTimeout(resolve, 200));
    await start({ webPort: Number(new URL(web).port), smtpPort: smtp.port });
    expect((await listMail(web)).map((m) => m.subject)).toEqual(['Last']);
  });

  it('keeps a second catcher in the same process apart: its own servers and mail', async () => {
    const [webPort, smtpPort] = await freePorts(2);
    const other = await startMailCatcher({ host: HOST, webPort, smtpPort });
    const otherWeb = `http://${HOST}:${webPort}`;
    try {
      await clearMail(web);
      await sendMail(smtp, {
        to: 'f@example.test',
        subject: 'First catcher',
        text: '6',
        html: '6',
      });
      await sendMail(
        { host: HOST, port: smtpPort },
        { to: 'g@example.test', subject: 'Second catcher', text: '7', html: '7' },
      );
      expect((await listMail(web)).map((m) => m.subject)).toEqual(['First catcher']);
      expect((await listMail(otherWeb)).map((m) => m.subject)).toEqual(['Second catcher']);
    } finally {
      await other.close();
    }
    // Stopping the second leaves the first serving.
    await sendMail(smtp, { to: 'h@example.test', subject: 'Still here', text: '8', html: '8' });
    expect((await listMail(web)).map((m) => m.subject)).toEqual(['First catcher', 'Still here']);
    await expect(fetch(`${otherWeb}/email`)).rejects.toThrow();
  });
});
