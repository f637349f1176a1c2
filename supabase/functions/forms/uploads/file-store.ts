// The submission-files bucket as the endpoint writes it: an object streamed to Storage's HTTP API
// as it arrives (never held whole), and objects removed; the scheduled sweep also lists an entry's
// folder. With the service role: visitors never write to Storage themselves on this path. Only
// fetch: the same under Deno and Node.

export const FILES_BUCKET = 'submission-files';

export interface FileStore {
  /** Streams `body` to the object `key`; its size once stored. Throws when it is not stored. */
  put(key: string, body: ReadableStream<Uint8Array>, mimeType: string): Promise<{ size: number }>;
  /** Removes the objects; missing ones are no error. */
  remove(keys: readonly string[]): Promise<void>;
}

/** What the sweep needs besides removing: the objects written under an entry's folder. */
export interface ListingFileStore extends FileStore {
  /** Keys of at most `limit` objects directly under `folder` (`a/b/c`, no trailing slash). */
  list(folder: string, limit: number): Promise<string[]>;
}

/** An object as Storage lists it: its key and size in bytes. */
interface ListedObject {
  key: string;
  size: number;
}

/** What a direct upload needs: URLs that write one object each, and what was written. */
export interface DirectFileStore extends FileStore {
  /**
   * An absolute URL that creates the object `key` once (a PUT of its bytes, no key needed) for
   * Storage's signed-upload time, never overwriting one that exists.
   */
  signUpload(key: string): Promise<string>;
  /** The objects directly under `folder`, with their sizes (at most `limit`). */
  listSized(folder: string, limit: number): Promise<ListedObject[]>;
  /** The first `bytes` bytes of the object `key` (all of a smaller one). */
  readHead(key: string, bytes: number): Promise<Uint8Array>;
}

/** The bucket over Storage's HTTP API: besides the above, download URLs signed for a while. */
export interface StorageFiles extends ListingFileStore, DirectFileStore {
  /** A URL that downloads `key` (as an attachment) for `seconds`, then stops working. */
  sign(key: string, seconds: number): Promise<string>;
}

/** Each path segment encoded, the slashes kept. */
const encodeKey = (key: string) => key.split('/').map(encodeURIComponent).join('/');

export function storageFileStore(opts: {
  /** SUPABASE_URL: where the function itself reaches Storage. */
  url: string;
  /**
   * Where the URLs handed out (signed downloads and uploads) point, for browsers and webhook
   * receivers outside the stack's network (settings.ts publicUrlFromEnv); `url` when absent.
   */
  publicUrl?: string;
  serviceKey: string;
  bucket?: string;
  fetch?: typeof fetch;
}): StorageFiles {
  const bucket = opts.bucket ?? FILES_BUCKET;
  const send = opts.fetch ?? fetch;
  const publicBase = opts.publicUrl ?? opts.url;
  const headers = { apikey: opts.serviceKey, authorization: `Bearer ${opts.serviceKey}` };
  const objectUrl = (key: string) =>
    `${opts.url}/storage/v1/object/${encodeURIComponent(bucket)}/${encodeKey(key)}`;

  return {
    async put(key, body, mimeType) {
      let size = 0;
      const counted = body.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, controller) {
            size += chunk.length;
            controller.enqueue(chunk);
          },
        }),
      );
      const res = await send(objectUrl(key), {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': mimeType,
          'cache-control': 'no-cache',
          'x-upsert': 'false',
        },
        body: counted,
        // A streamed request body (fetch's requirement for one).
        duplex: 'half',
      } as RequestInit);
      if (!res.ok) {
        const text = await res.text().catch(() => '');
        throw new Error(`Storage refused ${key}: ${res.status} ${text.slice(0, 200)}`);
      }
      await res.body?.cancel();
      return { size };
    },
    async remove(keys) {
      if (keys.length === 0) return;
      const res = await send(`${opts.url}/storage/v1/object/${encodeURIComponent(bucket)}`, {
        method: 'DELETE',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ prefixes: keys }),
      });
      if (!res.ok) throw new Error(`Storage did not remove files: ${res.status}`);
      await res.body?.cancel();
    },
    async sign(key, seconds) {
      const res = await send(
        `${opts.url}/storage/v1/object/sign/${encodeURIComponent(bucket)}/${encodeKey(key)}`,
        {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ expiresIn: seconds }),
        },
      );
      if (!res.ok) {
        await res.body?.cancel();
        throw new Error(`Storage did not sign ${key}: ${res.status}`);
      }
      const { signedURL } = (await res.json()) as { signedURL?: unknown };
      if (typeof signedURL !== 'string') throw new Error(`Storage did not sign ${key}`);
      // As storage-js does: relative to /storage/v1; `download` makes it an attachment.
      return `${publicBase}/storage/v1${signedURL}${signedURL.includes('?') ? '&' : '?'}download=`;
    },
    async signUpload(key) {
      // No x-upsert: the URL creates the object and cannot replace one (Storage's default).
      const res = await send(
        `${opts.url}/storage/v1/object/upload/sign/${encodeURIComponent(bucket)}/${encodeKey(key)}`,
        { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: '{}' },
      );
      if (!res.ok) {
        await res.body?.cancel();
        throw new Error(`Storage did not sign an upload of ${key}: ${res.status}`);
      }
      const { token } = (await res.json()) as { token?: unknown };
      if (typeof token !== 'string') throw new Error(`Storage did not sign an upload of ${key}`);
      // As storage-js builds it from the token, the key encoded for any client to send as is.
      return `${publicBase}/storage/v1/object/upload/sign/${encodeURIComponent(bucket)}/${encodeKey(key)}?token=${encodeURIComponent(token)}`;
    },
    async listSized(folder, limit) {
      return (await listRows(folder, limit)).map((row) => ({
        key: `${folder}/${row.name as string}`,
        size: Number((row.metadata as { size?: unknown } | null)?.size ?? NaN),
      }));
    },
    async readHead(key, bytes) {
      // A Range asks for the head only; a Storage that sends the whole object is read no further.
      const res = await send(objectUrl(key), {
        headers: { ...headers, range: `bytes=0-${bytes - 1}` },
      });
      if (!res.ok || !res.body) {
        await res.body?.cancel();
        throw new Error(`Storage did not read ${key}: ${res.status}`);
      }
      const head = new Uint8Array(bytes);
      let have = 0;
      const reader = res.body.getReader();
      while (have < bytes) {
        const { done, value } = await reader.read();
        if (done) break;
        const part = value.subarray(0, bytes - have);
        head.set(part, have);
        have += part.length;
      }
      await reader.cancel().catch(() => undefined);
      return head.slice(0, have);
    },
    async list(folder, limit) {
      return (await listRows(folder, limit)).map((row) => `${folder}/${row.name as string}`);
    },
  };

  /** The objects (not folders) directly under `folder`, as Storage's list answers them. */
  async function listRows(folder: string, limit: number) {
    const res = await send(`${opts.url}/storage/v1/object/list/${encodeURIComponent(bucket)}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({
        prefix: `${folder}/`,
        limit,
        offset: 0,
        sortBy: { column: 'name', order: 'asc' },
      }),
    });
    if (!res.ok) {
      await res.body?.cancel();
      throw new Error(`Storage did not list ${folder}: ${res.status}`);
    }
    const rows = (await res.json()) as { name?: unknown; id?: unknown; metadata?: unknown }[];
    // Folders come back too, without an id; only objects are removed.
    return rows.filter((row) => typeof row.name === 'string' && row.id != null);
  }
}
