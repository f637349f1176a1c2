// The docs section on API keys and the read API (`forms-api`): how to get a key, how to send it,
// the three endpoints with their parameters and answers, the refusals, and curl examples built
// for this deployment.
import { Link as RouterLink } from 'react-router-dom';
import { Box, Heading, Link, Stack } from '@chakra-ui/react';
import { env } from '../../../config/env';
import { paths } from '../../../config/paths';
import { API_ERROR_ROWS, API_KEYS } from '../api-facts';
import {
  ENTRIES_ANSWER,
  apiBaseUrl,
  deleteEntryExample,
  listEntriesExample,
  listFormsExample,
} from '../api-examples';
import { formatCount } from '../endpoint-facts';
import { docSection } from '../toc';
import { CodeSample } from './code-sample';
import { DocSection } from './doc-section';
import { Bullets, C, DataTable, Item, Note, P } from './docs-ui';

export function ApiKeys() {
  return (
    <DocSection {...docSection('api-keys')}>
      <P>
        Read your forms and entries from your own servers — to feed a CRM, a spreadsheet or a
        nightly export — with an API key. Create keys in{' '}
        <Link asChild color="teal.700">
          <RouterLink to={paths.settings}>Settings → API keys</RouterLink>
        </Link>{' '}
        and send one as <C>Authorization: Bearer {`${API_KEYS.prefix}…`}</C> with every request.
        Browser forms need no key at all.
      </P>
      <Bullets>
        <Item>
          <strong>Read-only keys</strong> list your forms and entries, and nothing else.
        </Item>
        <Item>
          <strong>Write-limited keys</strong> (“Read and delete” in Settings) may also delete
          entries, e.g. once a script has copied them elsewhere; they cannot change forms, keys or
          your account.
        </Item>
      </Bullets>
      <Note status="warning">
        A key is shown once, when you create it: copy it into your server’s secrets then. Only a
        hash of it is stored, so a lost key cannot be shown again — revoke it and create another.
        Never put a key in a web page or an app that others can download.
      </Note>
      <P>
        Each key may make {formatCount(API_KEYS.requestsPerMinute)} requests a minute, and an
        account {formatCount(API_KEYS.requestsPerMinutePerAccount)} a minute with all its keys
        together, so more keys do not make more requests. An account may have{' '}
        {formatCount(API_KEYS.maxActiveKeys)} active keys and create{' '}
        {formatCount(API_KEYS.createdPerDay)} a day (revoking one gives none back). A revoked key
        stops working at once, and its record is deleted {formatCount(API_KEYS.revokedKeptDays)}{' '}
        days after it was revoked. Every answer is JSON and never cached; errors have the same shape
        as the form endpoint’s: <C>{'{ "ok": false, "error", "code", "fields" }'}</C>.
      </P>

      <Stack gap={6} mt={6}>
        <Box>
          <Heading as="h3" size="lg" mb={2}>
            <C>GET /functions/v1/forms-api/forms</C>
          </Heading>
          <P>
            Your forms, newest first: <C>{'{ "ok": true, "forms": [ … ] }'}</C>, each with its{' '}
            <C>id</C>, <C>name</C>, <C>target_email</C>, <C>allowed_origin</C> and <C>created_at</C>
            .
          </P>
          <CodeSample label="List your forms with curl" code={listFormsExample(env.supabaseUrl)} />
        </Box>

        <Box>
          <Heading as="h3" size="lg" mb={2}>
            <C>GET /functions/v1/forms-api/forms/{'{formId}'}/entries</C>
          </Heading>
          <P>
            One page of a form’s entries, <strong>oldest first</strong>. Keep the <C>next_cursor</C>{' '}
            of the last page: passing it back later returns only the entries that arrived since, so
            a script can poll without missing or repeating any.
          </P>
          <DataTable
            caption="Query parameters (all optional)"
            head={['Parameter', 'Meaning']}
            rows={[
              [
                <C>since</C>,
                'Entries created at or after this moment, in ISO 8601: a date (`2026-11-24`, midnight UTC) or a timestamp with a zone (`2026-11-24T09:30:00Z`), from `0001-01-01` to `9999-12-31` (UTC). A day that does not exist or a moment outside those years answers 400.',
              ],
              [
                <C>cursor</C>,
                'The `next_cursor` of an earlier answer: continue after its last entry. Opaque: pass it back unchanged.',
              ],
              [
                <C>limit</C>,
                `Entries per page, ${formatCount(API_KEYS.defaultPageSize)} unless given; a larger value is lowered to ${formatCount(API_KEYS.maxPageSize)}.`,
              ],
            ]}
          />
          <CodeSample
            label="Page through entries with curl"
            code={listEntriesExample(env.supabaseUrl)}
          />
          <CodeSample label="A page of entries" code={ENTRIES_ANSWER} />
          <P>
            <C>has_more</C> says whether another page is waiting now; <C>is_spam</C> marks entries
            caught by a honeypot.
          </P>
        </Box>

        <Box>
          <Heading as="h3" size="lg" mb={2}>
            <C>
              DELETE /functions/v1/forms-api/forms/{'{formId}'}/entries/{'{entryId}'}
            </C>
          </Heading>
          <P>
            Deletes one entry with a write-limited key: <C>{'{ "ok": true, "id": "…" }'}</C>. A
            read-only key gets <C>403 insufficient_scope</C>.
          </P>
          <CodeSample
            label="Delete an entry with curl"
            code={deleteEntryExample(env.supabaseUrl)}
          />
        </Box>
      </Stack>

      <DataTable
        caption="Read API errors"
        head={['Status', 'Code', 'When']}
        rows={API_ERROR_ROWS.map((row) => [
          <strong>{row.status}</strong>,
          <C>{row.code}</C>,
          row.when,
        ])}
      />
      <P>
        The base URL of this deployment’s API is <C>{apiBaseUrl(env.supabaseUrl)}</C>. It answers
        browsers too (CORS allows any origin, as a key is never sent on its own), but keep keys on
        servers.
      </P>
    </DocSection>
  );
}
