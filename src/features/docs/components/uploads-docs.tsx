// The docs' file uploads section: how a form takes files, the limits and kinds, how a file's type
// is judged, what a refused post gets, the direct-upload flow of the JavaScript embed, and where
// the files go and who can read them.
import { SPECIAL_FIELDS } from '../../../../supabase/functions/_shared/limits';
import { BYTES_PER_MB, FILE_KIND_LABELS, FILE_KINDS, UPLOAD_LIMITS } from '../../../config/uploads';
import { docSection } from '../toc';
import { CodeSample } from './code-sample';
import { DocSection } from './doc-section';
import { Bullets, C, DataTable, Item, Note, P } from './docs-ui';

const UPLOADS_ENTRY = SPECIAL_FIELDS.uploadsEntry;

const mb = (bytes: number) => `${bytes / BYTES_PER_MB} MB`;

const FILE_INPUT_EXAMPLE = `<form action="…/functions/v1/forms/YOUR-FORM-ID" method="POST"
      enctype="multipart/form-data">
  <label for="cv">Your CV</label>
  <input id="cv" name="cv" type="file" accept="application/pdf,image/*" multiple>
  <!-- name, email, message and the spam trap as in the HTML form above -->
  <button type="submit">Send</button>
</form>`;

const DIRECT_REQUEST_EXAMPLE = `POST …/functions/v1/forms/YOUR-FORM-ID/uploads
Content-Type: application/json

{ "files": [
  { "name": "photo.png", "size": 48213, "field": "attachment" },
  { "name": "cv.pdf", "size": 120934, "field": "attachment" }
] }`;

const DIRECT_ANSWER_EXAMPLE = `{
  "ok": true,
  "entry": "3f0c…",
  "uploads": [
    { "name": "photo.png", "path": "<owner>/<form>/3f0c…/1-photo.png",
      "url": "https://<project>.supabase.co/storage/v1/object/upload/sign/…?token=…" },
    { "name": "cv.pdf", "path": "<owner>/<form>/3f0c…/2-cv.pdf", "url": "…" }
  ]
}`;

export function Uploads() {
  const { defaults } = UPLOAD_LIMITS;
  return (
    <DocSection {...docSection('uploads')}>
      <P>
        A form can take files with its messages. Switch it on under{' '}
        <strong>Forms → Edit → Files</strong>, choose the kinds of file it takes and its limits, and
        give the HTML form <C>{'enctype="multipart/form-data"'}</C> and a file input (the embed code
        in the dashboard includes one once uploads are on). The JavaScript variant uploads the files
        straight to Storage first, then posts the text fields (see Direct uploads below).
      </P>
      <CodeSample label="HTML form with a file input" code={FILE_INPUT_EXAMPLE} />
      <DataTable
        caption="Limits per form (you choose within the deployment's ceilings)"
        head={['Limit', 'New forms', 'Ceiling']}
        rows={[
          ['Size of one file', mb(defaults.maxFileBytes), mb(UPLOAD_LIMITS.maxFileBytes)],
          [
            'Size of a submission’s files',
            mb(defaults.maxTotalBytes),
            mb(UPLOAD_LIMITS.maxTotalBytes),
          ],
          ['Files in one submission', String(defaults.maxFiles), String(UPLOAD_LIMITS.maxFiles)],
        ]}
      />
      <P>
        The kinds a form can take: {FILE_KINDS.map((kind) => FILE_KIND_LABELS[kind]).join(', ')}. A
        file&rsquo;s kind is judged from its content (its first bytes), never from its name or the
        type the browser sends, so a program renamed <C>invoice.pdf</C> is refused. HTML and SVG
        count as text and are only ever downloaded, never shown as a page. File names are cleaned:
        no folders, control characters or right-to-left tricks, and at most 150 characters.
      </P>
      <P>
        A post that breaks a rule is refused whole (<C>413</C>, <C>415</C> or <C>422</C>, with the
        field and the limit; see Limits and error codes) and nothing of it is kept: no message, no
        file. Posts caught by the spam trap keep no files. A post with files counts against the
        sender&rsquo;s rate limit before its first byte is stored, whether it is then accepted or
        refused.
      </P>
      <P>
        <strong>Direct uploads from JavaScript.</strong> A script can send the files straight to
        Storage instead of through the form endpoint, which is what the JavaScript embed does. It
        takes three steps, all from the form&rsquo;s allowed website:
      </P>
      <Bullets ordered>
        <Item>
          <C>POST …/functions/v1/forms/YOUR-FORM-ID/uploads</C> with{' '}
          <C>Content-Type: application/json</C> announces the files by name, size in bytes and
          (optionally) the form field they come from. The same limits apply as to a post with files,
          with the same refusals (<C>422 too_many_files</C>, <C>413 file_too_large</C>,{' '}
          <C>413 files_too_large</C>, <C>413 storage_full</C>, <C>415 file_uploads_unsupported</C>
          ), and the request counts against the sender&rsquo;s rate limit like a post. The answer
          names the message&rsquo;s entry and one upload URL per file, in the order announced.
        </Item>
        <Item>
          <C>PUT</C> each file&rsquo;s bytes to its <C>url</C> (no key needed). A URL writes its one
          file once, never over an existing one, and stops working after two hours.
        </Item>
        <Item>
          Post the text fields as usual (URL-encoded or JSON, without the files), adding{' '}
          <C>{`${UPLOADS_ENTRY}=<entry>`}</C>. Each stored file is then checked as if it had come in
          the post: its real size against the limits and what was announced, its kind from its
          content. A file larger than announced or of a kind the form does not take refuses the post
          (<C>413</C>, <C>415</C>), and a refused or spam post keeps none of the files. An entry the
          form did not hand out, or a file announced but never uploaded, is refused with{' '}
          <C>400 invalid_body</C>. Posting the same entry again after it was stored answers as the
          first time and stores nothing more.
        </Item>
      </Bullets>
      <CodeSample label="Announcing the files" code={DIRECT_REQUEST_EXAMPLE} />
      <CodeSample label="The answer" code={DIRECT_ANSWER_EXAMPLE} />
      <P>
        Files uploaded but never posted are removed an hour after their URLs stop working. Both ways
        end in the same message with the same files.
      </P>
      <Bullets>
        <Item>
          Files go to a private Storage bucket of your Supabase project, under your account, form
          and message. Only you can download them, through links that work for a minute.
        </Item>
        <Item>
          The notification e-mail lists each file with its size and links to the message in your
          dashboard; it never links to a file. Webhook payloads carry each file&rsquo;s name, size,
          kind and a download URL that expires after an hour.
        </Item>
        <Item>
          Deleting a message or a form, a retention rule, forward-only mode and deleting your
          account delete the files too. Your account has a storage quota, shown under Settings; a
          post whose files do not fit is refused and nothing is kept.
        </Item>
      </Bullets>
      <Note>
        Files posted with the form are streamed straight to Storage as they arrive; nothing holds a
        whole upload in memory.
      </Note>
    </DocSection>
  );
}
