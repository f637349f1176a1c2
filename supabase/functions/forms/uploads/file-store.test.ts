// @vitest-environment node
// Where the file store sends its own requests and where the URLs it hands out point: a
// self-hosted stack's functions reach Storage at an internal address that browsers and webhook
// receivers cannot open.
import { describe, expect, it } from 'vitest';
import { storageFileStore } from './file-store.ts';

function recordingFetch(answer: unknown) {
  const asked: string[] = [];
  const fetch = (input: RequestInfo | URL) => {
    asked.push(String(input));
    return Promise.resolve(Response.json(answer));
  };
  return { asked, fetch: fetch as typeof globalThis.fetch };
}

describe('storageFileStore', () => {
  it('asks Storage at its own address and hands out URLs at the public one', async () => {
    const signing = recordingFetch({
      signedURL: '/object/sign/submission-files/u/f/e/1-a.pdf?token=t',
    });
    const store = storageFileStore({
      url: 'http://kong:8000',
      publicUrl: 'https://api.example.com',
      serviceKey: 'service',
      fetch: signing.fetch,
    });
    const download = await store.sign('u/f/e/1-a.pdf', 3600);
    expect(signing.asked).toEqual([
      'http://kong:8000/storage/v1/object/sign/submission-files/u/f/e/1-a.pdf',
    ]);
    expect(download).toBe(
      'https://api.example.com/storage/v1/object/sign/submission-files/u/f/e/1-a.pdf?token=t&download=',
    );

    const uploading = recordingFetch({ token: 'up' });
    const direct = storageFileStore({
      url: 'http://kong:8000',
      publicUrl: 'https://api.example.com',
      serviceKey: 'service',
      fetch: uploading.fetch,
    });
    const upload = await direct.signUpload('u/f/e/1-a b.pdf');
    expect(uploading.asked[0]).toMatch(/^http:\/\/kong:8000\/storage\/v1\/object\/upload\/sign\//);
    expect(upload).toBe(
      'https://api.example.com/storage/v1/object/upload/sign/submission-files/u/f/e/1-a%20b.pdf?token=up',
    );
  });

  it('hands out URLs at its own address without a public one', async () => {
    const signing = recordingFetch({ signedURL: '/object/sign/submission-files/k?token=t' });
    const store = storageFileStore({
      url: 'https://abc.supabase.co',
      serviceKey: 'service',
      fetch: signing.fetch,
    });
    expect(await store.sign('k', 60)).toBe(
      'https://abc.supabase.co/storage/v1/object/sign/submission-files/k?token=t&download=',
    );
  });
});
