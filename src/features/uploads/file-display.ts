// How a stored file shows in the inbox: its name with bidirectional controls as visible tokens,
// its kind in words, and whether it may be previewed. Only raster images of the types every browser
// decodes safely are previewed; SVG never is (it is text here, and could carry script), whatever
// its row says.
import type { EntryFile, FileKind } from '../../config/uploads';
import { visibleText } from '../../lib/visible-text';

const PREVIEWED_TYPES: ReadonlySet<string> = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
]);

/** Whether a thumbnail of the file may be shown as an <img>. */
export function hasThumbnail(file: Pick<EntryFile, 'kind' | 'mime_type'>): boolean {
  return file.kind === 'image' && PREVIEWED_TYPES.has(file.mime_type.toLowerCase());
}

/** The file's name as shown (the download keeps the stored one). */
export function shownFileName(file: Pick<EntryFile, 'name'>): string {
  return visibleText(file.name) || 'Unnamed file';
}

const KIND_NAMES: Record<FileKind, string> = {
  image: 'Image',
  pdf: 'PDF',
  office: 'Office document',
  text: 'Text',
  archive: 'Archive',
};

/** "Image", "PDF", "Office document", "Text", "Archive"; "File" for a kind this site does not know. */
export function kindLabel(kind: string): string {
  return Object.hasOwn(KIND_NAMES, kind) ? KIND_NAMES[kind as FileKind] : 'File';
}

/** A message's files in the order they were sent. */
export function inSentOrder<T extends Pick<EntryFile, 'position'>>(files: readonly T[]): T[] {
  return [...files].sort((a, b) => a.position - b.position);
}
