// Checks that every service of a started stack answers, so the CLI's `ready` line is true.
import WebSocket from 'ws';
import type { StackSettings } from './config.ts';

async function answers(url: string, init: RequestInit, ok: (status: number) => boolean) {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(5_000) });
  await res.arrayBuffer();
  if (!ok(res.status)) throw new Error(`${url} answered ${res.status}`);
}

function realtimeAnswersHeartbeat(settings: StackSettings): Promise<void> {
  const url = `${settings.apiUrl.replace(/^http/, 'ws')}/realtime/v1/websocket?apikey=${settings.anonKey}&vsn=2.0.0`;
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    const timer = setTimeout(() => {
      ws.terminate();
      reject(new Error('realtime did not answer a heartbeat'));
    }, 5_000);
    ws.on('open', () => ws.send(JSON.stringify([null, '1', 'phoenix', 'heartbeat', {}])));
    ws.on('message', (data) => {
      const [, ref, , event] = JSON.parse(String(data)) as unknown[];
      if (ref === '1' && event === 'phx_reply') {
        clearTimeout(timer);
        ws.close();
        resolve();
      }
    });
    ws.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}

/** Resolves when Auth, REST, Storage, Realtime, Functions and the mail catcher all answer. */
export async function checkReady(settings: StackSettings): Promise<void> {
  const headers = { apikey: settings.anonKey };
  await Promise.all([
    answers(`${settings.apiUrl}/auth/v1/health`, { headers }, (s) => s === 200),
    answers(`${settings.apiUrl}/rest/v1/`, { headers }, (s) => s === 200),
    // As anon: RLS shows no bucket, but the list answers (and the database behind it).
    answers(
      `${settings.apiUrl}/storage/v1/bucket`,
      { headers: { ...headers, Authorization: `Bearer ${settings.anonKey}` } },
      (s) => s === 200,
    ),
    // The functions router answers an unknown name with its own 404.
    answers(`${settings.apiUrl}/functions/v1/__ready_probe__`, { method: 'GET' }, (s) => s === 404),
    answers(`${settings.mailWebUrl}/email`, {}, (s) => s === 200),
    realtimeAnswersHeartbeat(settings),
  ]);
}
