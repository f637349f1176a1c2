import { describe, expect, it } from 'vitest';
import { multipartBoundary, openMultipartFile } from './multipart.ts';

/** A body encoded by the platform's own FormData, as supabase-js sends it, in chunks of `size`. */
async function encoded(form: FormData, size: number) {
  const request = new Request('http://x/', { method: 'POST', body: form });
  const bytes = Buffer.from(await request.arrayBuffer());
  const boundary = multipartBoundary(request.headers.get('content-type') ?? undefined);
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
  async function* source() {
    yield* chunks;
  }
  return { boundary: boundary!, source: source() };
}

async function collect(body: AsyncIterable<Buffer>) {
  const parts: Buffer[] = [];
  for await (const chunk of body) parts.push(chunk);
  return Buffer.concat(parts);
}

describe('multipart uploads', () => {
  it('finds the boundary of multipart/form-data only', () => {
    expect(multipartBoundary('multipart/form-data; boundary=abc')).toBe('abc');
    expect(multipartBoundary('multipart/form-data; boundary="a b"')).toBe('a b');
    expect(multipartBoundary('text/plain')).toBeNull();
    expect(multipartBoundary(undefined)).toBeNull();
  });

  it("reads the fields, the file's type and its exact bytes whatever the chunking", async () => {
    // Bytes that look like parts of a delimiter, to catch a boundary matched too early.
    const content = Buffer.concat([
      Buffer.from('\r\n--\r\n-'),
      Buffer.alloc(70_000, 7),
      Buffer.from('end\r\n'),
    ]);
    for (const size of [1, 7, 64, 1000, 1 << 20]) {
      const form = new FormData();
      form.append('cacheControl', '3600');
      form.append('metadata', '{"a":1}');
      form.append('', new Blob([content], { type: 'image/png' }));
      form.append('after', 'ignored');
      const { boundary, source } = await encoded(form, size);
      const file = await openMultipartFile(source, boundary);
      expect(file.fields.get('cacheControl')).toBe('3600');
      expect(file.fields.get('metadata')).toBe('{"a":1}');
      expect(file.contentType).toBe('image/png');
      expect((await collect(file.body)).equals(content), `chunks of ${size}`).toBe(true);
    }
  });

  it('refuses a form without a file', async () => {
    const form = new FormData();
    form.append('cacheControl', '3600');
    const { boundary, source } = await encoded(form, 100);
    await expect(openMultipartFile(source, boundary)).rejects.toMatchObject({
      code: 'InvalidRequest',
    });
  });

  it('refuses a body cut short inside the file', async () => {
    async function* source() {
      yield Buffer.from('--b\r\nContent-Disposition: form-data; name=""; filename="x"\r\n\r\nabc');
    }
    const file = await openMultipartFile(source(), 'b');
    await expect(collect(file.body)).rejects.toMatchObject({ code: 'InvalidRequest' });
  });
});
