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

/** The bucket over Storage's HTTP API: besides the above, download URLs signed for a while. */
export interface StorageFiles extends ListingFileStore {
  /** A URL that downloads `key` (as an attachment) for `seconds`, then stops working. */
  sign(key: string, seconds: number): Promise<string>;
}

/** Each path segment encoded, the slashes kept. */
const encodeKey = (key: string) => key.split('/').map(encodeURIComponent).join('/');

export function storageFileStore(opts: {
  /** SUPABASE_URL. */
  url: string;
  serviceKey: string;
  bucket?: string;
  fetch?: typeof fetch;
}): StorageFiles {
  const bucket = opts.bucket ?? FILES_BUCKET;
  const send = opts.fetch ?? fetch;
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
      return `${opts.url}/storage/v1${signedURL}${signedURL.includes('?') ? '&' : '?'}download=`;
    },
    async list(folder, limit) {
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
      const rows = (await res.json()) as { name?: unknown; id?: unknown }[];
      // Folders come back too, without an id; only objects are removed.
      return rows
        .filter((row) => typeof row.name === 'string' && row.id != null)
        .map((row) => `${folder}/${row.name as string}`);
    },
  };
}
