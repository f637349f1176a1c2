import { describe, expect, it } from 'vitest';
import { hasThumbnail, inSentOrder, kindLabel, shownFileName } from './file-display';

describe('files as the inbox shows them', () => {
  it('previews only raster images of the safe types, never SVG', () => {
    for (const mime of ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'IMAGE/PNG'])
      expect(hasThumbnail({ kind: 'image', mime_type: mime })).toBe(true);
    for (const mime of ['image/svg+xml', 'image/heic', 'image/tiff', 'image/bmp'])
      expect(hasThumbnail({ kind: 'image', mime_type: mime })).toBe(false);
    // A row whose type says PNG but whose kind is not an image is not previewed either.
    expect(hasThumbnail({ kind: 'text', mime_type: 'image/png' })).toBe(false);
  });

  it('names kinds in words and shows bidi controls in names as tokens', () => {
    expect(['image', 'pdf', 'office', 'text', 'archive', 'other'].map(kindLabel)).toEqual([
      'Image',
      'PDF',
      'Office document',
      'Text',
      'Archive',
      'File',
    ]);
    expect(shownFileName({ name: 'invoice\u202Efdp.exe' })).toBe('invoice[U+202E]fdp.exe');
  });

  it('keeps the order the files were sent in', () => {
    expect(
      inSentOrder([{ position: 3 }, { position: 1 }, { position: 2 }]).map((f) => f.position),
    ).toEqual([1, 2, 3]);
  });
});
