// Deno bootstrap for one Edge Function (run by worker-process.ts with `deno run`): it replaces
// `Deno.serve` before importing the function's module, so the handler the module registers is
// served on a private 127.0.0.1 port, then reports that port on stdout for the stack to proxy to.
// Usage: deno run -A worker.ts <entrypoint file URL> <function name>

type Handler = (request: Request, info: unknown) => Response | Promise<Response>;
type ErrorHandler = (error: unknown) => Response | Promise<Response>;
interface ServeOptions {
  handler?: Handler;
  onError?: ErrorHandler;
  onListen?: (addr: { hostname: string; port: number; transport: 'tcp' }) => void;
  hostname?: string;
  port?: number;
}
interface DenoServer {
  finished: Promise<void>;
  addr: { hostname: string; port: number; transport: 'tcp' };
}
// Only the part of the Deno namespace this bootstrap uses (the file is also type-checked by tsc).
declare const Deno: {
  args: string[];
  serve: (...args: unknown[]) => unknown;
  exit(code: number): never;
  stdin: { readable: ReadableStream<Uint8Array> };
  env: { get(name: string): string | undefined };
  memoryUsage(): { rss: number; heapTotal: number; heapUsed: number; external: number };
  writeTextFileSync(path: string, data: string): void;
};

/** Printed once the function is being served; worker-process.ts waits for this line. */
const READY_MARKER = '@@tinyback-functions-worker-ready@@';

const [entrypointUrl, functionName] = Deno.args;
const realServe = Deno.serve.bind(Deno) as (options: ServeOptions, handler: Handler) => DenoServer;

let registered: { handler: Handler; options: ServeOptions } | undefined;
let onServed: ((addr: DenoServer['addr']) => void) | undefined;
const served = new Promise<DenoServer['addr']>((resolve) => (onServed = resolve));

// What the module gets back from Deno.serve: the real server lives in this bootstrap.
function stubServer(): object {
  const addr = { hostname: '127.0.0.1', port: 0, transport: 'tcp' as const };
  void served.then((real) => Object.assign(addr, real));
  return {
    addr,
    finished: new Promise<void>(() => undefined),
    ref() {},
    unref() {},
    shutdown: async () => undefined,
  };
}

// Accepts every form the real Deno.serve accepts: (handler), (options, handler), ({ handler }).
Deno.serve = (...args: unknown[]) => {
  const [first, second] = args;
  let options: ServeOptions = {};
  let handler: Handler | undefined;
  if (typeof first === 'function') handler = first as Handler;
  else if (first && typeof first === 'object') {
    options = first as ServeOptions;
    handler = typeof second === 'function' ? (second as Handler) : options.handler;
  }
  if (!handler) throw new TypeError('A handler function must be provided.');
  if (registered) console.warn(`[${functionName}] Deno.serve called again: the last handler wins`);
  registered = { handler, options };
  if (options.onListen) void served.then(options.onListen);
  return stubServer();
};

// Edge Functions keep running after a stray rejection or exception; log it instead of dying.
globalThis.addEventListener('unhandledrejection', (event) => {
  console.error('Unhandled promise rejection:', (event as PromiseRejectionEvent).reason);
  event.preventDefault();
});
globalThis.addEventListener('error', (event) => {
  console.error('Uncaught exception:', (event as ErrorEvent).error);
  event.preventDefault();
});

// Supabase's runtime offers EdgeRuntime.waitUntil for work that outlives the response; the
// worker stays up between requests, so the task only needs its failure logged.
(globalThis as Record<string, unknown>).EdgeRuntime ??= {
  waitUntil(promise: Promise<unknown>) {
    return Promise.resolve(promise).catch((err) => console.error('waitUntil task failed:', err));
  },
};

// Benchmarks only: with LOCAL_STACK_MEMORY_SAMPLES set to a file, the worker keeps there the
// highest memory its isolate held (V8's heap plus the external buffers it tracks, sampled every
// 20 ms) — what Supabase's runtime counts against a worker's memory limit, where the process's
// resident size also holds the runtime itself.
const memorySamples = Deno.env.get('LOCAL_STACK_MEMORY_SAMPLES');
if (memorySamples) {
  let peak = 0;
  setInterval(() => {
    const { heapTotal, external } = Deno.memoryUsage();
    if (heapTotal + external <= peak) return;
    peak = heapTotal + external;
    Deno.writeTextFileSync(memorySamples, JSON.stringify({ peak, heapTotal, external }));
  }, 20);
}

// The stack keeps our stdin open; when it closes the stack is gone, so no orphan survives it.
void (async () => {
  const reader = Deno.stdin.readable.getReader();
  try {
    while (!(await reader.read()).done);
  } finally {
    Deno.exit(0);
  }
})();

try {
  const mod = (await import(entrypointUrl)) as { default?: { fetch?: Handler } };
  if (!registered && typeof mod.default?.fetch === 'function') {
    const target = mod.default;
    registered = { handler: (req, info) => target.fetch!(req, info), options: {} };
  }
  if (!registered) {
    throw new Error('the module neither called Deno.serve(handler) nor exported default { fetch }');
  }
} catch (err) {
  console.error(`[${functionName}] worker boot error:`, err);
  Deno.exit(1);
}

const { handler, options } = registered!;
realServe(
  {
    hostname: '127.0.0.1',
    port: 0,
    onError: options.onError,
    onListen: (addr) => {
      onServed?.(addr);
      console.log(`${READY_MARKER} ${addr.port}`);
    },
  },
  handler,
);

export {};
