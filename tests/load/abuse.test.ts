// The outward features under attack, through the real parts (Auth, REST, the forms function on
// Deno, Postgres, SMTP to the mail catcher, webhooks to a receiver on this machine), on a stack of
// its own with the shipped limits. For a minute (ABUSE_SECONDS), one signed-in account and one
// visitor client try to send as much autoresponse, confirmation and webhook traffic to one outside
// address as they can: creating forms and deleting them again, switching autoresponders on,
// posting the victim's address, adding webhooks, sending test events and resends, asking for
// target confirmations. What leaves must stay within the caps docs/SECURITY.md states; the test
// prints what was tried and what left.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import ws from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePorts, startStack, type RunningStack } from '../../local-stack/stack.ts';
import {
  ACCOUNT_CAPS,
  AUTORESPONDER,
  CONFIRMATIONS,
} from '../../supabase/functions/_shared/limits.ts';
import { functionUrl, ORIGIN, rawRequest, urlencoded } from '../endpoint/support.ts';
import { startReceiver, type Receiver } from '../endpoint/webhook-receiver.ts';
import { isTo, listMail } from '../support/mail.ts';

const SECONDS = Number(process.env.ABUSE_SECONDS ?? 60);
/** The attacker's one visitor network. */
const CLIENT = '127.0.0.77';
const PASSWORD = 'correct-horse-9';

let stack: RunningStack;
let dataDir: string;
let receiver: Receiver;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'tinyback-abuse-'));
  const [api, db, mailWeb, smtp] = await freePorts(4);
  stack = await startStack({
    dataDir,
    ports: { api, db, mailWeb, smtp },
    seed: false,
    // The outbox runs every second instead of every minute: whatever the caps let through leaves
    // within the test.
    deliveryIntervalMs: 1_000,
    log: (service, message) => {
      if (process.env.STACK_LOG) console.log(`[${service}] ${message}`);
    },
  });
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await stack?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** The attacker: an ordinary confirmed account, signed in with supabase-js. */
async function attacker(): Promise<{ client: SupabaseClient; email: string }> {
  const { apiUrl, anonKey, serviceRoleKey } = stack.settings;
  const options = {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: ws as unknown as typeof WebSocket },
  };
  const email = `attacker-${randomUUID().slice(0, 8)}@example.test`;
  const admin = createClient(apiUrl, serviceRoleKey, options);
  const created = await admin.auth.admin.createUser({
    email,
    password: PASSWORD,
    email_confirm: true,
  });
  if (created.error) throw created.error;
  const client = createClient(apiUrl, anonKey, options);
  const signedIn = await client.auth.signInWithPassword({ email, password: PASSWORD });
  if (signedIn.error) throw signedIn.error;
  return { client, email };
}

const postAs = (formId: string, fields: Record<string, string>) =>
  rawRequest(functionUrl(stack.settings.apiUrl, formId), {
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: ORIGIN,
      accept: 'application/json',
    },
    body: urlencoded(fields),
    localAddress: CLIENT,
  });

describe('abuse of the outward features', () => {
  it(`lets no more than the documented caps reach one outside address in ${SECONDS} s`, async () => {
    const { client, email: ownEmail } = await attacker();
    const victim = `victim-${randomUUID().slice(0, 8)}@victim.example.test`;
    const hookPath = `/victim-${randomUUID().slice(0, 8)}`;
    const tried = {
      forms: 0,
      formsRefused: 0,
      posts: 0,
      webhooks: 0,
      tests: 0,
      resends: 0,
      confirmations: 0,
    };
    const live: { id: string; hooks: string[] }[] = [];
    const startedAt = Date.now();
    const deadline = startedAt + SECONDS * 1000;

    /** A form sending its replies from the attacker's own (verified) address, reply on. */
    async function newForm(target: string): Promise<string | null> {
      const id = randomUUID();
      tried.forms++;
      const made = await client
        .from('forms')
        .insert({ id, name: 'Account notice', target_email: target, allowed_origin: ORIGIN });
      if (made.error) {
        tried.formsRefused++;
        return null;
      }
      await client.from('form_autoresponders').insert({
        form_id: id,
        enabled: true,
        subject: 'Action needed, {{name}}',
        body: 'Hello {{name}}, {{message}}',
      });
      return id;
    }

    async function autoresponsesAndWebhooks(): Promise<void> {
      while (Date.now() < deadline) {
        const id = await newForm(ownEmail);
        if (id) {
          const hooks: string[] = [];
          for (let i = 0; i < ACCOUNT_CAPS.webhooksPerForm; i++) {
            tried.webhooks++;
            const hook = await client
              .from('webhooks')
              .insert({ form_id: id, url: receiver.url(hookPath), format: 'json' })
              .select('id')
              .single();
            if (hook.data) hooks.push(hook.data.id as string);
          }
          live.push({ id, hooks });
        }
        // The victim's address, posted to every form the account has, as one visitor.
        for (const form of live) {
          tried.posts++;
          await postAs(form.id, {
            name: 'Security team: verify at https://evil.example/login',
            email: victim,
            message: 'Your account is suspended',
          });
        }
        // Every other round the oldest form goes, hoping to win back its allowance.
        if (live.length > 1 && tried.forms % 2 === 0) {
          const gone = live.shift()!;
          await client.from('forms').delete().eq('id', gone.id);
        }
        if (!id) await new Promise((r) => setTimeout(r, 500));
      }
    }

    async function manualWebhookSends(): Promise<void> {
      while (Date.now() < deadline) {
        const hook = live.at(-1)?.hooks[0];
        if (hook) {
          tried.tests++;
          await client.rpc('send_webhook_test', { p_webhook_id: hook });
          const last = await client
            .from('webhook_deliveries')
            .select('id')
            .in('status', ['sent', 'failed'])
            .limit(1);
          if (last.data?.[0]) {
            tried.resends++;
            await client.rpc('redeliver_webhook', { p_delivery_id: last.data[0].id });
          }
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    }

    async function confirmations(): Promise<void> {
      // A form that mails the victim asks the victim to confirm; then it asks again and again,
      // and moves its target away and back to make new requests.
      const id = await newForm(victim);
      if (!id) return;
      while (Date.now() < deadline) {
        tried.confirmations++;
        await client.rpc('resend_target_confirmation', { p_form_id: id });
        await client
          .from('forms')
          .update({ target_email: `other-${randomUUID().slice(0, 8)}@example.test` })
          .eq('id', id);
        await client.from('forms').update({ target_email: victim }).eq('id', id);
        await new Promise((r) => setTimeout(r, 100));
      }
    }

    await Promise.all([autoresponsesAndWebhooks(), manualWebhookSends(), confirmations()]);
    // Let the outbox send whatever the caps let through.
    await new Promise((r) => setTimeout(r, 10_000));
    const elapsedMinutes = Math.ceil((Date.now() - startedAt) / 60_000);

    const mails = (await listMail(stack.settings.mailWebUrl)).filter((m) => isTo(m, victim));
    const confirmationMails = mails.filter((m) => /^Confirm this address/.test(m.subject)).length;
    const replies = mails.length - confirmationMails;
    const hooks = receiver.received(hookPath).length;
    console.log(
      `[abuse] ${SECONDS} s, one account, one client: tried ${tried.forms} forms ` +
        `(${tried.formsRefused} refused), ${tried.posts} posts of the victim's address, ` +
        `${tried.webhooks} webhooks, ${tried.tests} test events, ${tried.resends} resends, ` +
        `${tried.confirmations} confirmation requests → left: ${replies} autoresponses ` +
        `(cap ${AUTORESPONDER.perClientPerDay} per visitor network), ${confirmationMails} ` +
        `confirmation mails (cap ${CONFIRMATIONS.perRecipientPerDay} per recipient), ${hooks} ` +
        `webhook requests (cap ${ACCOUNT_CAPS.webhookAttemptsPerHostPerMinute} a minute to the ` +
        `host, ${elapsedMinutes} minute(s))`,
    );

    expect(replies).toBeLessThanOrEqual(AUTORESPONDER.perClientPerDay);
    expect(confirmationMails).toBeLessThanOrEqual(CONFIRMATIONS.perRecipientPerDay);
    expect(hooks).toBeLessThanOrEqual(
      ACCOUNT_CAPS.webhookAttemptsPerHostPerMinute * elapsedMinutes,
    );
    // Nothing the visitor wrote reached the victim.
    for (const mail of mails) expect(`${mail.text}`).not.toMatch(/evil\.example|suspended/);
    // And the attempt was a real one: the account hit its caps.
    expect(tried.formsRefused).toBeGreaterThan(0);
    expect(replies).toBeGreaterThan(0);
    expect(hooks).toBeGreaterThan(0);
  });
});
