// What the endpoint does with each file of a post, as it arrives (stream.ts hands them on): judge
// its kind from its first bytes against the form's settings, name it safely, and stream it to its
// object under the owner, form and entry. A kind the form does not take refuses the post (415)
// before anything of that file is stored. Pure orchestration: detection and the store are given.
import { keyName, shownName } from './file-name.ts';
import type { FileStore } from './file-store.ts';
import { judgeFile, type Detected, type FileKind } from './kinds.ts';
import type { UploadSettings } from './settings.ts';
import type { IncomingFile } from './incoming.ts';

export interface StoredFile {
  /** 1, 2, … in the order the files came. */
  position: number;
  field: string;
  name: string;
  objectKey: string;
  kind: FileKind;
  mimeType: string;
  size: number;
}

/** A file whose kind the form does not take: the post is answered 415 with these. */
export class KindRefused extends Error {
  constructor(
    readonly field: string,
    /** What the content is, when anything could tell. */
    readonly mimeType: string | null,
  ) {
    super(`file of type ${mimeType ?? 'unknown'} not allowed`);
  }
}

/** The folder of an entry's objects: `<user_id>/<form_id>/<entry_id>`. */
export const entryFolder = (ids: { userId: string; formId: string; entryId: string }) =>
  `${ids.userId}/${ids.formId}/${ids.entryId}`;

export function fileReceiver(opts: {
  store: FileStore;
  detect: (head: Uint8Array) => Promise<Detected | undefined>;
  settings: UploadSettings;
  folder: string;
}): (file: IncomingFile) => Promise<StoredFile> {
  let position = 0;
  return async (file) => {
    const judged = judgeFile(await opts.detect(file.head), file.head, opts.settings.kinds);
    if (!judged.ok) {
      await file.body.cancel();
      throw new KindRefused(file.field, judged.mime);
    }
    position++;
    const name = shownName(file.filename);
    const objectKey = `${opts.folder}/${position}-${keyName(name)}`;
    const { size } = await opts.store.put(objectKey, file.body, judged.mime);
    return {
      position,
      field: file.field,
      name,
      objectKey,
      kind: judged.kind,
      mimeType: judged.mime,
      size,
    };
  };
}
