// The docs' file uploads section: how a form takes files, the limits and kinds, how a file's type
// is judged, what a refused post gets, and where the files go and who can read them.
import { BYTES_PER_MB, FILE_KIND_LABELS, FILE_KINDS, UPLOAD_LIMITS } from '../../../config/uploads';
import { docSection } from '../toc';
import { CodeSample } from './code-sample';
import { DocSection } from './doc-section';
import { Bullets, C, DataTable, Item, Note, P } from './docs-ui';

const mb = (bytes: number) => `${bytes / BYTES_PER_MB} MB`;

const FILE_INPUT_EXAMPLE = `<form action="…/functions/v1/forms/YOUR-FORM-ID" method="POST"
      enctype="multipart/form-data">
  <label for="cv">Your CV</label>
  <input id="cv" name="cv" type="file" accept="application/pdf,image/*" multiple>
  <!-- name, email, message and the spam trap as in the HTML form above -->
  <button type="submit">Send</button>
</form>`;

export function Uploads() {
  const { defaults } = UPLOAD_LIMITS;
  return (
    <DocSection {...docSection('uploads')}>
      <P>
        A form can take files with its messages. Switch it on under{' '}
        <strong>Forms → Edit → Files</strong>, choose the kinds of file it takes and its limits, and
        give the HTML form <C>{'enctype="multipart/form-data"'}</C> and a file input (the embed code
        in the dashboard includes one once uploads are on). The JavaScript variant sends{' '}
        <C>new FormData(form)</C>, which carries the files the same way.
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
        Files are streamed straight to Storage as they arrive; nothing holds a whole upload in
        memory.
      </Note>
    </DocSection>
  );
}
