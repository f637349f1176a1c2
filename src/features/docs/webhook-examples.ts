// The webhook samples of the docs page. The verification snippet is run verbatim by
// tests/endpoint/webhooks.test.ts against a real delivery, so what the docs teach stays true.

export const WEBHOOK_SIGNATURE_HEADER = 'X-Tinyback-Signature';

/** Node (18+): checks the signature header of a webhook request; ESM, no dependencies. */
export const WEBHOOK_VERIFY_NODE = `import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * True when rawBody (the request body exactly as received: a string or Buffer) was signed by
 * tinyback with your webhook's secret at most toleranceSeconds ago.
 */
export function verifyTinybackSignature(rawBody, signatureHeader, secret, toleranceSeconds = 300) {
  const parts = Object.fromEntries(
    String(signatureHeader ?? '')
      .split(',')
      .map((part) => part.trim().split('=')),
  );
  const t = Number(parts.t);
  if (!Number.isInteger(t) || !/^[0-9a-f]{64}$/.test(parts.v1 ?? '')) return false;
  // Refuse old deliveries, so a captured request cannot be replayed later.
  if (Math.abs(Date.now() / 1000 - t) > toleranceSeconds) return false;
  const expected = createHmac('sha256', secret).update(\`\${t}.\`).update(rawBody).digest();
  return timingSafeEqual(expected, Buffer.from(parts.v1, 'hex'));
}

// With Express, keep the raw body for the check:
// app.post('/tinyback', express.raw({ type: 'application/json' }), (req, res) => {
//   const signature = req.get('${WEBHOOK_SIGNATURE_HEADER}');
//   if (!verifyTinybackSignature(req.body, signature, process.env.TINYBACK_WEBHOOK_SECRET)) {
//     return res.sendStatus(401);
//   }
//   const { event, form, entry } = JSON.parse(req.body);
//   res.sendStatus(204);
// });
`;

/** An example body of the `json` format, as a receiver gets it. */
export const WEBHOOK_PAYLOAD_EXAMPLE = `{
  "event": "entry.created",
  "delivery_id": "6f1c2a9e-1b7d-4c53-9a55-3d2f8e0b7c41",
  "sent_at": "2026-11-24T10:00:02.000Z",
  "form": { "id": "0b8f…", "name": "Contact" },
  "entry": {
    "id": "c2d4…",
    "name": "Ada Lovelace",
    "email": "ada@example.com",
    "message": "Hello!",
    "data": { "company": "Analytical Engines" },
    "is_spam": false,
    "created_at": "2026-11-24T10:00:01.512Z"
  }
}`;

/**
 * The delivery figures the docs state; tests/endpoint/webhooks.test.ts checks them against the
 * function's own WEBHOOKS (supabase/functions/_shared/outbox/webhooks.ts), so they cannot drift apart.
 */
export const WEBHOOK_FACTS = {
  firstRetrySeconds: 30,
  maxDelaySeconds: 2 * 60 * 60,
  retryWindowHours: 24,
  timeoutSeconds: 10,
  maxResponseKiB: 16,
  excerptChars: 500,
  toleranceSeconds: 300,
} as const;
