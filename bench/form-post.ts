// One JSON post to the form endpoint, as the benchmarks send it: over the caller's keep-alive
// agent (and local address, to be its own visitor), with the form's Origin.
import http from 'node:http';

/** Resolves with Date.now() at the 2xx answer; rejects with the status and the body's start. */
export function postForm(
  url: URL,
  opts: { agent: http.Agent; origin: string; body: string; localAddress?: string },
): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        agent: opts.agent,
        localAddress: opts.localAddress,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          origin: opts.origin,
          'content-length': Buffer.byteLength(opts.body),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const at = Date.now();
          const status = res.statusCode ?? 0;
          if (status >= 200 && status < 300) resolve(at);
          else
            reject(new Error(`HTTP ${status}: ${Buffer.concat(chunks).toString().slice(0, 200)}`));
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}
