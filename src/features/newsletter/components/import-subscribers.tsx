// Imports subscribers from a CSV file into a list. The file is read in the browser; nothing is
// sent until the owner says, in their own words, how these people agreed to hear from them and
// ticks that they did: the statement is stored with every imported address, and an import without
// it is refused. Large files go in chunks of at most 10 000 rows; then what was added, the
// duplicates and the invalid rows are reported with their rows in the file.
import { useId, useRef, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  Field,
  Heading,
  Input,
  List,
  Stack,
  Text,
  Textarea,
} from '@chakra-ui/react';
import { notify } from '../../../components/toaster';
import { visibleText } from '../../../lib/visible-text';
import { IMPORT_CHUNK_SIZE, useImportSubscribers } from '../api/import-subscribers';
import { describeListError } from '../newsletter-errors';
import { parseSubscriberCsv, type CsvSubscriber } from '../subscriber-csv';

const STATEMENT_MIN = 10;
const STATEMENT_MAX = 500;
/** How many duplicates or invalid rows the report names; the rest are counted. */
const REPORT_ROWS = 50;

interface Report {
  added: number;
  duplicates: { row: number; email: string }[];
  invalid: { row: number; email: string; reason: string }[];
}

/** A file's text as UTF-8 (FileReader: every browser the site supports reads files with it). */
function readText(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result : '');
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
    reader.readAsText(file, 'utf-8');
  });
}

type FileState =
  | { kind: 'none' }
  | { kind: 'reading'; name: string }
  | { kind: 'error'; name: string; message: string }
  | { kind: 'ready'; name: string; rows: CsvSubscriber[] };

export function ImportSubscribers({ listId, listName }: { listId: string; listName: string }) {
  const fileId = useId();
  const statementId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<FileState>({ kind: 'none' });
  const [statement, setStatement] = useState('');
  const [agreed, setAgreed] = useState(false);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [report, setReport] = useState<Report | null>(null);
  const [error, setError] = useState<string | null>(null);
  const importChunk = useImportSubscribers();

  const statementLength = statement.trim().length;
  const statementOk = statementLength >= STATEMENT_MIN && statementLength <= STATEMENT_MAX;
  const rows = file.kind === 'ready' ? file.rows : [];
  const importing = progress !== null;
  const canImport = rows.length > 0 && statementOk && agreed && !importing;

  async function pick(picked: File | undefined) {
    setReport(null);
    setError(null);
    if (!picked) {
      setFile({ kind: 'none' });
      return;
    }
    setFile({ kind: 'reading', name: picked.name });
    try {
      const parsed = parseSubscriberCsv(await readText(picked));
      setFile(
        parsed.ok
          ? { kind: 'ready', name: picked.name, rows: parsed.rows }
          : { kind: 'error', name: picked.name, message: parsed.error },
      );
    } catch {
      setFile({ kind: 'error', name: picked.name, message: 'The file could not be read.' });
    }
  }

  async function runImport() {
    if (!canImport) return;
    setError(null);
    setReport(null);
    const total = Math.ceil(rows.length / IMPORT_CHUNK_SIZE);
    const result: Report = { added: 0, duplicates: [], invalid: [] };
    try {
      for (let chunk = 0; chunk < total; chunk++) {
        setProgress({ done: chunk, total });
        const offset = chunk * IMPORT_CHUNK_SIZE;
        const part = rows.slice(offset, offset + IMPORT_CHUNK_SIZE);
        const answer = await importChunk.mutateAsync({
          listId,
          rows: part,
          consentStatement: statement,
          last: chunk === total - 1,
        });
        // The answer counts rows from 1 within the chunk; the report names the file's rows.
        const fileRow = (row: number) => part[row - 1]?.row ?? offset + row + 1;
        result.added += answer.added;
        result.duplicates.push(...answer.duplicates.map((d) => ({ ...d, row: fileRow(d.row) })));
        result.invalid.push(...answer.invalid.map((d) => ({ ...d, row: fileRow(d.row) })));
      }
      setReport(result);
      notify(
        'success',
        'Import finished',
        `${result.added} ${result.added === 1 ? 'subscriber' : 'subscribers'} added to ${visibleText(listName)}.`,
      );
      setFile({ kind: 'none' });
      setAgreed(false);
      if (inputRef.current) inputRef.current.value = '';
    } catch (caught) {
      const message = describeListError(caught, 'import the subscribers');
      setError(
        result.added > 0 || result.duplicates.length > 0 || result.invalid.length > 0
          ? `${message} The rows before the failure were imported (${result.added} added).`
          : message,
      );
      if (result.added > 0) setReport(result);
    } finally {
      setProgress(null);
    }
  }

  return (
    <Stack gap="4" maxW="2xl">
      <Text fontSize="sm" color="fg.muted">
        A CSV file whose first row names the columns: <strong>email</strong>, and{' '}
        <strong>name</strong> if you have one, in any order. Imported people are added as confirmed
        and receive your campaigns, so import only people who agreed to get e-mail from you.
      </Text>
      <Field.Root>
        <Field.Label htmlFor={fileId}>CSV file</Field.Label>
        <Input
          ref={inputRef}
          id={fileId}
          type="file"
          accept=".csv,text/csv,text/plain"
          p="1"
          disabled={importing}
          onChange={(event) => void pick(event.target.files?.[0])}
        />
      </Field.Root>
      <Box role="status" aria-live="polite">
        {file.kind === 'reading' && <Text fontSize="sm">Reading {file.name}…</Text>}
        {file.kind === 'ready' && (
          <Text fontSize="sm" fontWeight="semibold">
            {file.rows.length === 0
              ? `${file.name} has no rows below its header.`
              : `${file.rows.length} ${file.rows.length === 1 ? 'row' : 'rows'} to import from ${file.name}.`}
          </Text>
        )}
      </Box>
      {file.kind === 'error' && (
        <Alert.Root status="error" role="alert">
          <Alert.Indicator />
          <Alert.Title>
            {file.name}: {file.message}
          </Alert.Title>
        </Alert.Root>
      )}
      <Field.Root
        required
        invalid={statementLength > STATEMENT_MAX || (statementLength > 0 && !statementOk)}
      >
        <Field.Label htmlFor={statementId}>
          How did these people agree to hear from you?
        </Field.Label>
        <Textarea
          id={statementId}
          rows={3}
          maxLength={STATEMENT_MAX}
          placeholder="They signed up for updates on our website's contact form in 2025."
          value={statement}
          disabled={importing}
          onChange={(event) => setStatement(event.target.value)}
        />
        <Field.HelperText>
          Stored with every imported address as the record of their consent ({STATEMENT_MIN} to{' '}
          {STATEMENT_MAX} characters).
        </Field.HelperText>
      </Field.Root>
      <Checkbox.Root
        checked={agreed}
        onCheckedChange={(details) => setAgreed(details.checked === true)}
        colorPalette="teal"
        size="sm"
        disabled={importing}
      >
        <Checkbox.HiddenInput />
        <Checkbox.Control />
        <Checkbox.Label>These people agreed to receive e-mail from me</Checkbox.Label>
      </Checkbox.Root>
      <div>
        <Button
          colorPalette="teal"
          disabled={!canImport}
          loading={importing}
          loadingText={
            progress && progress.total > 1
              ? `Importing part ${progress.done + 1} of ${progress.total}…`
              : 'Importing…'
          }
          onClick={() => void runImport()}
        >
          Import subscribers
        </Button>
      </div>
      {error && (
        <Alert.Root status="error" role="alert">
          <Alert.Indicator />
          <Alert.Title>{error}</Alert.Title>
        </Alert.Root>
      )}
      {report && <ImportReport report={report} />}
    </Stack>
  );
}

function ImportReport({ report }: { report: Report }) {
  const headingId = useId();
  return (
    <Box
      as="section"
      aria-labelledby={headingId}
      borderWidth="1px"
      borderRadius="lg"
      p="4"
      bg="bg.subtle"
    >
      <Heading as="h4" size="sm" id={headingId} mb="2">
        Import report
      </Heading>
      <Stack gap="3" fontSize="sm">
        <Text>
          <strong>{report.added}</strong> added · <strong>{report.duplicates.length}</strong>{' '}
          {report.duplicates.length === 1 ? 'duplicate' : 'duplicates'} ·{' '}
          <strong>{report.invalid.length}</strong> invalid
        </Text>
        {report.invalid.length > 0 && (
          <RowList
            title="Invalid rows (not imported)"
            items={report.invalid.map(
              (row) => `Row ${row.row}: ${visibleText(row.email) || '(empty)'} — ${row.reason}`,
            )}
          />
        )}
        {report.duplicates.length > 0 && (
          <RowList
            title="Duplicates (already on the list or earlier in the file)"
            items={report.duplicates.map((row) => `Row ${row.row}: ${visibleText(row.email)}`)}
          />
        )}
      </Stack>
    </Box>
  );
}

function RowList({ title, items }: { title: string; items: string[] }) {
  return (
    <Stack gap="1">
      <Text fontWeight="semibold">{title}</Text>
      <List.Root ps="5" gap="0.5">
        {items.slice(0, REPORT_ROWS).map((item) => (
          <List.Item key={item}>{item}</List.Item>
        ))}
      </List.Root>
      {items.length > REPORT_ROWS && (
        <Text color="fg.muted">and {items.length - REPORT_ROWS} more</Text>
      )}
    </Stack>
  );
}
