// Direct uploads: the JavaScript embed writes a post's files straight to Storage through signed
// upload URLs, then posts its text fields naming the entry. The uploads route checks what is
// announced (number, sizes, the owner's storage left) against the form, records the entry as
// pending with the files announced (begin_uploads, so the sweep removes what is never posted) and
// signs one URL per object, under the same owner/form/entry folder and safe names as a streamed
// post. The post that follows is judged on what Storage actually holds: each object's real size
// and, from its first bytes, its kind (the same judge as the streamed path), so a client that
// uploads more, or something else, than it announced is refused and its objects removed. What
// passes becomes the same StoredFile rows a streamed post makes.
import { UPLOADS } from '../../_shared/limits.ts';
import { ERRORS, type EndpointError } from '../errors.ts';
import type { FormRecord } from '../model.ts';
import { keyName, shownName } from './file-name.ts';
import type { DirectFileStore } from './file-store.ts';
import { judgeFile, type Detected } from './kinds.ts';
import { entryFolder, type StoredFile } from './receive.ts';
import type { UploadSettings } from './settings.ts';

/** A file as the embed announces it: its name, size in bytes and the form field it came from. */
export interface AnnouncedFile {
  name: string;
  size: number;
  field: string;
}

/** An announced file with its place: what the pending row keeps and the post is checked against. */
export interface PlannedFile extends AnnouncedFile {
  position: number;
  /** The object's name in the entry's folder: `<n>-<keyName>`. */
  keyName: string;
}

/** The field a refusal names when the embed did not say which input a file came from. */
const DEFAULT_FIELD = 'files';
/** Longest name or field name read from an announcement, in characters. */
const MAX_ANNOUNCED_TEXT = 1_000;

/** The uploads route's answer once its URLs are signed. */
export interface SignedUploads {
  entry: string;
  uploads: { name: string; path: string; url: string }[];
}

export type Announcement =
  { ok: true; files: AnnouncedFile[] } | { ok: false; error: EndpointError };

/**
 * Reads the uploads route's JSON body, `{ files: [{ name, size, field? }] }`, and holds it to the
 * form's limits before anything is recorded or signed.
 */
export function readAnnouncement(body: unknown, settings: UploadSettings): Announcement {
  const list = (body as { files?: unknown } | null)?.files;
  if (!Array.isArray(list) || list.length === 0)
    return {
      ok: false,
      error: ERRORS.invalidBody(
        'Send { "files": [{ "name": …, "size": … }] } with one or more files.',
      ),
    };
  const files: AnnouncedFile[] = [];
  for (const item of list as unknown[]) {
    const { name, size, field } = (item ?? {}) as Record<string, unknown>;
    if (
      typeof name !== 'string' ||
      name.length > MAX_ANNOUNCED_TEXT ||
      typeof size !== 'number' ||
      !Number.isSafeInteger(size) ||
      size < 0 ||
      (field !== undefined && (typeof field !== 'string' || field.length > MAX_ANNOUNCED_TEXT))
    )
      return {
        ok: false,
        error: ERRORS.invalidBody('Each file needs a name (text) and a size (whole bytes).'),
      };
    files.push({ name, size, field: (field as string | undefined) || DEFAULT_FIELD });
  }
  if (files.length > settings.maxFiles)
    return {
      ok: false,
      error: ERRORS.tooManyFiles(files[settings.maxFiles]!.field, settings.maxFiles),
    };
  let total = 0;
  for (const file of files) {
    if (file.size > settings.maxFileBytes)
      return { ok: false, error: ERRORS.fileTooLarge(file.field, settings.maxFileBytes) };
    total += file.size;
    if (total > settings.maxTotalBytes)
      return { ok: false, error: ERRORS.filesTooLarge(file.field, settings.maxTotalBytes) };
  }
  return { ok: true, files };
}

/** Each file's shown name, position and name in the folder (`<n>-<keyName>`), as a streamed post's. */
export function planFiles(files: readonly AnnouncedFile[]): PlannedFile[] {
  return files.map((file, i) => {
    const name = shownName(file.name);
    return { ...file, name, position: i + 1, keyName: `${i + 1}-${keyName(name)}` };
  });
}

/** The pending row's copy of the plan (database keys), and back. */
const planToRow = (files: readonly PlannedFile[]) =>
  files.map((f) => ({
    position: f.position,
    name: f.name,
    size: f.size,
    field: f.field,
    key_name: f.keyName,
  }));

export function planFromRow(rows: unknown): PlannedFile[] {
  if (!Array.isArray(rows)) return [];
  return rows.map((row: Record<string, unknown>) => ({
    position: Number(row.position),
    name: String(row.name),
    size: Number(row.size),
    field: String(row.field ?? DEFAULT_FIELD),
    keyName: String(row.key_name),
  }));
}

/** What direct_upload_entry() says of an entry a post names. */
export type NamedEntry =
  | { status: 'stored'; hasFiles: boolean }
  | { status: 'unknown' }
  | { status: 'pending'; userId: string; files: PlannedFile[]; storageLeft: number | null };

/** A post naming a direct upload's entry, judged on what Storage holds under it. */
export type DirectRead =
  /** The entry is stored already (a repeat of its post): answered as the first. */
  | { status: 'stored' }
  | { status: 'ok'; files: StoredFile[] }
  | { status: 'refused'; error: EndpointError };

export interface DirectUploadsDeps {
  store: DirectFileStore;
  detect(head: Uint8Array): Promise<Detected | undefined>;
  /** begin_uploads() with the files announced, the row dated from when their URLs close. */
  beginUploads(
    entryId: string,
    formId: string,
    files: ReturnType<typeof planToRow>,
    openSeconds: number,
  ): Promise<{ userId: string; storageLeft: number | null }>;
  /** direct_upload_entry(). */
  namedEntry(entryId: string, formId: string): Promise<NamedEntry>;
  log(message: string): void;
}

export function directUploads(deps: DirectUploadsDeps) {
  /** Removes the objects under a pending entry; a failure is logged (the sweep removes them). */
  async function removeAll(keys: readonly string[]) {
    if (keys.length === 0) return;
    try {
      await deps.store.remove(keys);
    } catch (err) {
      deps.log(`removing the files of a refused direct upload failed: ${(err as Error).message}`);
    }
  }

  return {
    /**
     * The uploads route, once the form takes files and the client was counted: records the entry
     * and signs a URL per file. Throws when the database or Storage fails.
     */
    async begin(
      form: FormRecord,
      entryId: string,
      files: readonly AnnouncedFile[],
    ): Promise<{ ok: true; signed: SignedUploads } | { ok: false; error: EndpointError }> {
      const planned = planFiles(files);
      const { userId, storageLeft } = await deps.beginUploads(
        entryId,
        form.id,
        planToRow(planned),
        UPLOADS.signedUploadSeconds,
      );
      const total = planned.reduce((n, file) => n + file.size, 0);
      // The reservation when the entry is stored is what holds; this spares an upload that
      // cannot fit.
      if (storageLeft !== null && total > storageLeft)
        return { ok: false, error: ERRORS.storageFull() };
      const folder = entryFolder({ userId, formId: form.id, entryId });
      const uploads = await Promise.all(
        planned.map(async (file) => {
          const path = `${folder}/${file.keyName}`;
          return { name: file.name, path, url: await deps.store.signUpload(path) };
        }),
      );
      return { ok: true, signed: { entry: entryId, uploads } };
    },
    /** A post naming `entryId`: its objects checked, or a refusal that has removed them. */
    async read(form: FormRecord, entryId: string): Promise<DirectRead> {
      const settings = form.uploads;
      const named = await deps.namedEntry(entryId, form.id);
      if (named.status === 'stored') return { status: 'stored' };
      if (named.status === 'unknown')
        return { status: 'refused', error: ERRORS.uploadsEntryUnknown() };
      const folder = entryFolder({ userId: named.userId, formId: form.id, entryId });
      const listed = await deps.store.listSized(folder, UPLOADS.maxFiles + 1);
      const refuse = async (error: EndpointError): Promise<DirectRead> => {
        await removeAll(listed.map((object) => object.key));
        return { status: 'refused', error };
      };
      // Turned off since the URLs were handed out.
      if (!settings?.enabled) return await refuse(ERRORS.fileUpload());
      const sizes = new Map(listed.map((object) => [object.key, object.size]));
      const quota =
        named.storageLeft !== null && named.storageLeft < settings.maxTotalBytes
          ? named.storageLeft
          : null;
      const files: StoredFile[] = [];
      let total = 0;
      for (const planned of named.files) {
        const objectKey = `${folder}/${planned.keyName}`;
        const size = sizes.get(objectKey);
        if (size === undefined || !Number.isFinite(size))
          return await refuse(ERRORS.fileMissing(planned.field, planned.name));
        // Past what its URL was handed out for, or the form's own limits: refused whole.
        if (size > settings.maxFileBytes)
          return await refuse(ERRORS.fileTooLarge(planned.field, settings.maxFileBytes));
        if (size > planned.size)
          return await refuse(ERRORS.fileTooLarge(planned.field, planned.size));
        total += size;
        if (quota !== null && total > quota) return await refuse(ERRORS.storageFull());
        if (total > settings.maxTotalBytes)
          return await refuse(ERRORS.filesTooLarge(planned.field, settings.maxTotalBytes));
        const head = await deps.store.readHead(objectKey, UPLOADS.sniffBytes);
        const judged = judgeFile(await deps.detect(head), head, settings.kinds);
        if (!judged.ok) return await refuse(ERRORS.fileTypeNotAllowed(planned.field));
        files.push({
          position: planned.position,
          field: planned.field,
          name: planned.name,
          objectKey,
          kind: judged.kind,
          mimeType: judged.mime,
          size,
        });
      }
      return { status: 'ok', files };
    },
    /**
     * Removes the objects of a post that did not keep them, unless their entry is stored with
     * its files: a second post naming the same entry that lost the race to store it must not
     * take the winner's files. Never throws.
     */
    async remove(form: FormRecord, entryId: string, files: readonly StoredFile[]) {
      try {
        const named = await deps.namedEntry(entryId, form.id);
        if (named.status === 'stored' && named.hasFiles) return;
      } catch (err) {
        // Unsure whether the entry is stored: its objects stay for the sweep, which keeps a
        // stored entry's.
        deps.log(`checking a direct upload's entry failed: ${(err as Error).message}`);
        return;
      }
      await removeAll(files.map((file) => file.objectKey));
    },
  };
}
