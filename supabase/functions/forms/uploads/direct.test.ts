// @vitest-environment node
// Direct uploads over fakes: what the uploads route takes, the names and keys it plans, how a post
// naming the entry is judged on what Storage holds (and that every refusal removes the entry's
// objects), and that a post losing the race to a stored entry leaves that entry's files alone.
// tests/endpoint/uploads-direct.test.ts runs it against the local stack's Postgres and Storage.
import { describe, expect, it } from 'vitest';
import type { FormRecord } from '../model.ts';
import { directUploads, planFiles, readAnnouncement, type NamedEntry } from './direct.ts';
import type { DirectFileStore } from './file-store.ts';
import type { Detected } from './kinds.ts';
import type { UploadSettings } from './settings.ts';

const settings: UploadSettings = {
  enabled: true,
  kinds: ['image', 'pdf'],
  maxFileBytes: 1000,
  maxTotalBytes: 1500,
  maxFiles: 2,
};
const form: FormRecord = {
  id: 'form-1',
  name: 'Contact',
  target_email: 'owner@example.test',
  allowed_origin: 'https://site.example',
  redirect_url: null,
  uploads: settings,
};
const PNG_HEAD = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const PDF_HEAD = new TextEncoder().encode('%PDF-1.7\n');
const EXE_HEAD = new TextEncoder().encode('MZ\u0090binary');
const FOLDER = 'user-1/form-1/entry-1';

describe('readAnnouncement', () => {
  const refusal = (body: unknown) => {
    const read = readAnnouncement(body, settings);
    return read.ok
      ? null
      : {
          status: read.error.status,
          code: read.error.code,
          limit: read.error.limit,
          fields: read.error.fields && Object.keys(read.error.fields),
        };
  };

  it('takes names, sizes and fields within the form’s limits', () => {
    expect(
      readAnnouncement(
        {
          files: [
            { name: 'a.png', size: 10, field: 'photo' },
            { name: 'b.pdf', size: 0 },
          ],
        },
        settings,
      ),
    ).toEqual({
      ok: true,
      files: [
        { name: 'a.png', size: 10, field: 'photo' },
        { name: 'b.pdf', size: 0, field: 'files' },
      ],
    });
  });

  it('refuses what is not a list of named, sized files', () => {
    for (const body of [
      null,
      {},
      { files: [] },
      { files: [{ name: 'a' }] },
      { files: [{ name: 'a', size: -1 }] },
      { files: [{ name: 'a', size: 1.5 }] },
      { files: [{ name: 7, size: 1 }] },
      { files: [{ name: 'a', size: 1, field: 3 }] },
    ])
      expect(refusal(body)).toMatchObject({ status: 400, code: 'invalid_body' });
  });

  it('names the field and the limit broken', () => {
    const f = (size: number, field: string) => ({ name: `${field}.pdf`, size, field });
    expect(refusal({ files: [f(1, 'a'), f(1, 'b'), f(1, 'c')] })).toEqual({
      status: 422,
      code: 'too_many_files',
      limit: 2,
      fields: ['c'],
    });
    expect(refusal({ files: [f(1001, 'a')] })).toEqual({
      status: 413,
      code: 'file_too_large',
      limit: 1000,
      fields: ['a'],
    });
    expect(refusal({ files: [f(800, 'a'), f(701, 'b')] })).toEqual({
      status: 413,
      code: 'files_too_large',
      limit: 1500,
      fields: ['b'],
    });
  });
});

describe('planFiles', () => {
  it('gives each file its position and the streamed path’s safe names', () => {
    expect(
      planFiles([
        { name: '../x/Résumé.pdf', size: 5, field: 'cv' },
        { name: 'a\u202Egnp.exe', size: 6, field: 'cv' },
      ]),
    ).toEqual([
      { name: 'Résumé.pdf', size: 5, field: 'cv', position: 1, keyName: '1-Resume.pdf' },
      { name: 'agnp.exe', size: 6, field: 'cv', position: 2, keyName: '2-agnp.exe' },
    ]);
  });
});

/** Storage and the database as fakes: the objects under the entry, with their first bytes. */
function fakes(named: NamedEntry, objects: Record<string, { size: number; head: Uint8Array }>) {
  const removed: string[][] = [];
  const store: DirectFileStore = {
    async put() {
      throw new Error('not used');
    },
    async remove(keys) {
      removed.push([...keys]);
    },
    async signUpload(key) {
      return `https://storage.test/upload/${key}?token=t`;
    },
    async listSized(folder) {
      return Object.entries(objects)
        .filter(([key]) => key.startsWith(`${folder}/`))
        .map(([key, { size }]) => ({ key, size }));
    },
    async readHead(key) {
      return objects[key]!.head;
    },
  };
  const detect = async (head: Uint8Array): Promise<Detected | undefined> =>
    head[0] === 0x89
      ? { mime: 'image/png', ext: 'png' }
      : head[0] === 0x25
        ? { mime: 'application/pdf', ext: 'pdf' }
        : head[0] === 0x4d
          ? { mime: 'application/x-msdownload', ext: 'exe' }
          : undefined;
  const direct = directUploads({
    store,
    detect,
    beginUploads: async () => ({ userId: 'user-1', storageLeft: null }),
    namedEntry: async () => named,
    log: () => undefined,
  });
  return { direct, removed };
}

const pending = (storageLeft: number | null = null): NamedEntry => ({
  status: 'pending',
  userId: 'user-1',
  storageLeft,
  files: [
    { position: 1, name: 'photo.png', size: 100, field: 'photo', keyName: '1-photo.png' },
    { position: 2, name: 'cv.pdf', size: 300, field: 'cv', keyName: '2-cv.pdf' },
  ],
});
const uploaded = (over: Record<string, { size: number; head: Uint8Array }> = {}) => ({
  [`${FOLDER}/1-photo.png`]: { size: 100, head: PNG_HEAD },
  [`${FOLDER}/2-cv.pdf`]: { size: 250, head: PDF_HEAD },
  ...over,
});

describe('a post naming a direct upload', () => {
  it('becomes the streamed path’s files: real sizes, kinds from content', async () => {
    const { direct, removed } = fakes(pending(), uploaded());
    expect(await direct.read(form, 'entry-1')).toEqual({
      status: 'ok',
      files: [
        {
          position: 1,
          field: 'photo',
          name: 'photo.png',
          objectKey: `${FOLDER}/1-photo.png`,
          kind: 'image',
          mimeType: 'image/png',
          size: 100,
        },
        {
          position: 2,
          field: 'cv',
          name: 'cv.pdf',
          objectKey: `${FOLDER}/2-cv.pdf`,
          kind: 'pdf',
          mimeType: 'application/pdf',
          size: 250,
        },
      ],
    });
    expect(removed).toEqual([]);
  });

  const refusals: [
    string,
    NamedEntry,
    Record<string, { size: number; head: Uint8Array }>,
    number,
    string,
  ][] = [
    [
      'a file missing',
      pending(),
      { [`${FOLDER}/1-photo.png`]: { size: 100, head: PNG_HEAD } },
      400,
      'invalid_body',
    ],
    [
      'a file larger than announced',
      pending(),
      uploaded({ [`${FOLDER}/2-cv.pdf`]: { size: 301, head: PDF_HEAD } }),
      413,
      'file_too_large',
    ],
    [
      'a file larger than the form takes',
      pending(),
      uploaded({ [`${FOLDER}/1-photo.png`]: { size: 1001, head: PNG_HEAD } }),
      413,
      'file_too_large',
    ],
    ['files over the owner’s storage left', pending(200), uploaded(), 413, 'storage_full'],
    [
      'a disguised type',
      pending(),
      uploaded({ [`${FOLDER}/2-cv.pdf`]: { size: 250, head: EXE_HEAD } }),
      415,
      'file_type_not_allowed',
    ],
  ];
  for (const [what, named, objects, status, code] of refusals) {
    it(`is refused for ${what}, every object under the entry removed`, async () => {
      const { direct, removed } = fakes(named, objects);
      const read = await direct.read(form, 'entry-1');
      expect(read).toMatchObject({ status: 'refused', error: { status, code } });
      expect(removed).toEqual([Object.keys(objects)]);
    });
  }

  it('is refused, removing nothing, for an entry the form did not hand out', async () => {
    const { direct, removed } = fakes({ status: 'unknown' }, uploaded());
    expect(await direct.read(form, 'entry-1')).toMatchObject({
      status: 'refused',
      error: { status: 400, code: 'invalid_body' },
    });
    expect(removed).toEqual([]);
  });

  it('is answered as stored for an entry stored already', async () => {
    const { direct } = fakes({ status: 'stored', hasFiles: true }, uploaded());
    expect(await direct.read(form, 'entry-1')).toEqual({ status: 'stored' });
  });
});

describe('removing the files of a post that kept none', () => {
  const files = [
    {
      position: 1,
      field: 'photo',
      name: 'photo.png',
      objectKey: `${FOLDER}/1-photo.png`,
      kind: 'image' as const,
      mimeType: 'image/png',
      size: 100,
    },
  ];

  it('removes them while the entry is pending or stored without files (spam)', async () => {
    for (const named of [pending(), { status: 'stored', hasFiles: false } as const]) {
      const { direct, removed } = fakes(named, uploaded());
      await direct.remove(form, 'entry-1', files);
      expect(removed).toEqual([[`${FOLDER}/1-photo.png`]]);
    }
  });

  it('leaves them when the entry was stored with its files by another post', async () => {
    const { direct, removed } = fakes({ status: 'stored', hasFiles: true }, uploaded());
    await direct.remove(form, 'entry-1', files);
    expect(removed).toEqual([]);
  });
});

describe('the uploads route', () => {
  it('signs one URL per file under the owner, form and entry', async () => {
    const { direct } = fakes(pending(), {});
    expect(
      await direct.begin(form, 'entry-1', [
        { name: 'photo.png', size: 1, field: 'photo' },
        { name: 'cv.pdf', size: 1, field: 'cv' },
      ]),
    ).toEqual({
      ok: true,
      signed: {
        entry: 'entry-1',
        uploads: [
          {
            name: 'photo.png',
            path: `${FOLDER}/1-photo.png`,
            url: `https://storage.test/upload/${FOLDER}/1-photo.png?token=t`,
          },
          {
            name: 'cv.pdf',
            path: `${FOLDER}/2-cv.pdf`,
            url: `https://storage.test/upload/${FOLDER}/2-cv.pdf?token=t`,
          },
        ],
      },
    });
  });
});
