// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { DEFAULT_KINDS, FILE_KINDS, judgeFile, looksLikeText, type FileKind } from './kinds.ts';

const bytes = (text: string) => new TextEncoder().encode(text);
const ALL = Object.keys(FILE_KINDS) as FileKind[];

describe('looksLikeText', () => {
  it('takes UTF-8 without NULs, even cut inside a character', () => {
    expect(looksLikeText(bytes('name,email\nAda,ada@example.test\n'))).toBe(true);
    expect(looksLikeText(bytes('Grüße, 简历 😀'))).toBe(true);
    const cut = bytes('ok 😀').subarray(0, 5);
    expect(looksLikeText(cut)).toBe(true);
    expect(looksLikeText(new Uint8Array())).toBe(true);
  });

  it('refuses NULs and bytes that are not UTF-8', () => {
    expect(looksLikeText(new Uint8Array([0x41, 0x00, 0x42]))).toBe(false);
    expect(looksLikeText(new Uint8Array([0xff, 0xfe, 0x41, 0x42]))).toBe(false);
    expect(looksLikeText(new Uint8Array([0x41, 0xc3, 0x28, 0x42, 0x43, 0x44]))).toBe(false);
  });
});

describe('judgeFile', () => {
  const png = { mime: 'image/png', ext: 'png' };

  it("takes the type the content shows, whatever the file's name or Content-Type said", () => {
    expect(judgeFile(png, new Uint8Array([0x89, 0x50]), DEFAULT_KINDS)).toEqual({
      ok: true,
      kind: 'image',
      mime: 'image/png',
      ext: 'png',
    });
    expect(
      judgeFile({ mime: 'application/pdf', ext: 'pdf' }, bytes('%PDF-1.7'), DEFAULT_KINDS),
    ).toMatchObject({ ok: true, kind: 'pdf' });
    expect(
      judgeFile(
        {
          mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
          ext: 'docx',
        },
        bytes('PK'),
        DEFAULT_KINDS,
      ),
    ).toMatchObject({ ok: true, kind: 'office', ext: 'docx' });
  });

  it('refuses a kind the form does not allow, and a type no kind takes, naming it', () => {
    expect(judgeFile(png, new Uint8Array(), ['pdf'])).toEqual({ ok: false, mime: 'image/png' });
    // A program named "photo.png": the content says what it is.
    expect(judgeFile({ mime: 'application/x-msdownload', ext: 'exe' }, bytes('MZ'), ALL)).toEqual({
      ok: false,
      mime: 'application/x-msdownload',
    });
    expect(judgeFile({ mime: 'application/zip', ext: 'zip' }, bytes('PK'), DEFAULT_KINDS)).toEqual({
      ok: false,
      mime: 'application/zip',
    });
    expect(
      judgeFile({ mime: 'application/zip', ext: 'zip' }, bytes('PK'), ['archive']),
    ).toMatchObject({ ok: true, kind: 'archive' });
  });

  it('judges what no detector names as text when it is text, else refuses it as unknown', () => {
    expect(judgeFile(undefined, bytes('a,b\n1,2\n'), DEFAULT_KINDS)).toEqual({
      ok: true,
      kind: 'text',
      mime: 'text/plain',
      ext: 'txt',
    });
    // Markup is text: stored as text/plain, never served as a page.
    expect(
      judgeFile(undefined, bytes('<svg onload="alert(1)"></svg>'), DEFAULT_KINDS),
    ).toMatchObject({ ok: true, mime: 'text/plain' });
    expect(judgeFile(undefined, bytes('a,b'), ['image'])).toEqual({
      ok: false,
      mime: 'text/plain',
    });
    expect(judgeFile(undefined, new Uint8Array([1, 0, 2, 0xff]), ALL)).toEqual({
      ok: false,
      mime: null,
    });
  });

  it('leaves archives out of the default kinds', () => {
    expect(DEFAULT_KINDS).not.toContain('archive');
    expect([...DEFAULT_KINDS].sort()).toEqual(['image', 'office', 'pdf', 'text']);
  });
});
