// A multipart post to a form with uploads on, read as it arrives: its text fields collected, each
// file judged and streamed to Storage under the owner, form and entry (stream.ts, receive.ts).
// Before the first object the entry is recorded for the sweep and the owner's storage left is
// read, so a post that cannot fit stops early. Whatever refuses the post (a limit, a kind, Storage
// failing) removes the objects already written before the answer: nothing of a refused post stays.
import { LIMITS, UPLOADS } from '../../_shared/limits.ts';
import { ERRORS, type EndpointError } from '../errors.ts';
import type { PostWithFiles } from '../handler.ts';
import type { FormRecord } from '../model.ts';
import type { FileStore } from './file-store.ts';
import { createUploadGate } from './gate.ts';
import type { Detected } from './kinds.ts';
import { entryFolder, fileReceiver, KindRefused, type StoredFile } from './receive.ts';
import { readMultipartStream, type StreamRefusal } from './stream.ts';

export interface PostFilesDeps {
  store: FileStore;
  detect(head: Uint8Array): Promise<Detected | undefined>;
  /** begin_uploads(): the owner's id and their storage left in bytes (null: no quota). */
  beginUploads(
    entryId: string,
    formId: string,
  ): Promise<{ userId: string; storageLeft: number | null }>;
  log(message: string): void;
}

/** Removes `files`' objects; a failure is logged (the sweep removes them from the pending row). */
export async function removeStored(
  store: FileStore,
  files: readonly Pick<StoredFile, 'objectKey'>[],
  log: (message: string) => void,
): Promise<void> {
  if (files.length === 0) return;
  try {
    await store.remove(files.map((file) => file.objectKey));
  } catch (err) {
    log(`removing the files of a refused post failed: ${(err as Error).message}`);
  }
}

const encoder = new TextEncoder();
const textBytes = (fields: readonly [string, string][]) =>
  fields.reduce(
    (n, [name, value]) => n + encoder.encode(name).length + encoder.encode(value).length,
    0,
  );

function refusalError(refusal: StreamRefusal, quotaLimit: number | null): EndpointError {
  switch (refusal.code) {
    case 'file_too_large':
      return ERRORS.fileTooLarge(refusal.field, refusal.limit);
    case 'files_too_large':
      // The owner's storage, not the form's limit, was what the files passed.
      return quotaLimit !== null && refusal.limit === quotaLimit
        ? ERRORS.storageFull()
        : ERRORS.filesTooLarge(refusal.field, refusal.limit);
    case 'too_many_files':
      return ERRORS.tooManyFiles(refusal.field, refusal.limit);
    case 'malformed':
      return ERRORS.invalidBody('The multipart body is malformed or cut off.');
  }
}

/** Reads `req` (multipart) for `form` (uploads on) as the entry `entryId`. */
export function postFilesReader(deps: PostFilesDeps) {
  const gate = createUploadGate(UPLOADS.streams);
  return async (req: Request, form: FormRecord, entryId: string): Promise<PostWithFiles> => {
    const settings = form.uploads;
    if (!settings?.enabled || !req.body) return { ok: false, error: ERRORS.fileUpload() };
    const release = await gate.enter();
    if (!release) {
      // Nothing was read or written yet: the client retries after Retry-After.
      deps.log(
        `${UPLOADS.streams.waiting} posts with files were already waiting; one was turned away`,
      );
      return { ok: false, error: ERRORS.storageFailed() };
    }
    try {
      return await readPost(req, form, entryId, settings);
    } finally {
      release();
    }
  };

  async function readPost(
    req: Request,
    form: FormRecord,
    entryId: string,
    settings: NonNullable<FormRecord['uploads']>,
  ): Promise<PostWithFiles> {
    const { userId, storageLeft } = await deps.beginUploads(entryId, form.id);
    const quotaLimit =
      storageLeft !== null && storageLeft < settings.maxTotalBytes ? storageLeft : null;
    const store = fileReceiver({
      store: deps.store,
      detect: deps.detect,
      settings,
      folder: entryFolder({ userId, formId: form.id, entryId }),
    });
    const outcome = await readMultipartStream(
      req.body!,
      req.headers.get('content-type') ?? '',
      {
        maxFiles: settings.maxFiles,
        maxFileBytes: settings.maxFileBytes,
        maxTotalBytes: quotaLimit ?? settings.maxTotalBytes,
        maxFields: LIMITS.maxFields,
        maxFieldBytes: LIMITS.maxBodyBytes,
        headBytes: UPLOADS.sniffBytes,
      },
      async (file) => {
        // A file input left empty still sends a part: no name and no bytes.
        if (file.filename === '' && file.head.length === 0) {
          await file.body.cancel();
          return null;
        }
        return await store(file);
      },
    );
    const files = outcome.files.filter((file): file is StoredFile => file !== null);
    // The text fields together keep the limit of a post without files.
    if (outcome.ok && textBytes(outcome.fields) <= LIMITS.maxBodyBytes)
      return { ok: true, fields: outcome.fields, files };
    if (outcome.ok) {
      await removeStored(deps.store, files, deps.log);
      return { ok: false, error: ERRORS.bodyTooLarge() };
    }
    await removeStored(deps.store, files, deps.log);
    if (outcome.refusal) return { ok: false, error: refusalError(outcome.refusal, quotaLimit) };
    if (outcome.cause instanceof KindRefused)
      return { ok: false, error: ERRORS.fileTypeNotAllowed(outcome.cause.field) };
    deps.log(`storing a post's files failed: ${(outcome.cause as Error)?.message}`);
    return { ok: false, error: ERRORS.storageFailed() };
  }
}
