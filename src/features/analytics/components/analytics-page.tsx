// /dashboard/analytics: the owner's sites and the stats of the one selected. The site, the range
// and the filters are the URL's (`?site=…&range=7d&page=/pricing`), so a view can be shared,
// bookmarked and reloaded. No site yet: the form to add one. Each site's snippet is one click away.
import { useId, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import {
  Button,
  Container,
  Field,
  Heading,
  HStack,
  NativeSelect,
  Stack,
  Text,
} from '@chakra-ui/react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { SettingLoadError, SettingLoading } from '../../../components/setting-states';
import { notify } from '../../../components/toaster';
import { useDocumentTitle } from '../../../components/use-document-title';
import { useAuth } from '../../../lib/auth';
import { visibleText } from '../../../lib/visible-text';
import { useDeleteSite } from '../api/delete-site';
import { useSites, type AnalyticsSite } from '../api/get-sites';
import { rangeFromParams, withCustomRange, withPreset, type RangePreset } from '../date-range';
import { describeSiteError } from '../site-domains';
import { FILTER_KEYS, filtersFromParams, withFilter, type FilterKey } from '../stats-filters';
import { useLiveVisitors } from '../use-live-visitors';
import { SharePanel } from './share-panel';
import { SiteForm } from './site-form';
import { AccountLimitNotice } from './account-limit-notice';
import { SiteStats } from './site-stats';
import { SnippetBox } from './snippet-box';

type Panel = 'add' | 'edit' | 'snippet' | 'share' | null;

export function AnalyticsPage() {
  useDocumentTitle('Analytics');
  const { user } = useAuth();
  const sites = useSites();
  const [params, setParams] = useSearchParams();
  const [panel, setPanel] = useState<Panel>(null);
  const [deleting, setDeleting] = useState<AnalyticsSite | null>(null);

  const list = sites.data ?? [];
  const site = list.find((s) => s.id === params.get('site')) ?? list[0];
  useLiveVisitors(user?.id, site?.id);

  const range = rangeFromParams(params, new Date());
  const filters = filtersFromParams(params);

  function update(next: URLSearchParams) {
    setParams(next, { replace: false });
  }
  function selectSite(id: string) {
    // Another site starts without the last one's filters; the range is kept.
    const next = new URLSearchParams(params);
    for (const key of FILTER_KEYS) next.delete(key);
    next.set('site', id);
    setPanel(null);
    update(next);
  }
  function setPreset(preset: Exclude<RangePreset, 'custom'>) {
    update(withPreset(params, preset));
  }
  function setCustom(from: string, to: string) {
    update(withCustomRange(params, from, to));
  }
  function setFilter(key: FilterKey, value: string | null) {
    update(withFilter(params, key, value));
  }

  return (
    <Container maxW="6xl" py={{ base: '6', md: '8' }} px={{ base: '4', md: '6' }}>
      <Stack gap="6">
        <Stack gap="1">
          <Heading as="h1" size="xl">
            Analytics
          </Heading>
          <Text color="fg.muted">
            Visitors of your sites, counted without cookies and without storing IP addresses.
          </Text>
        </Stack>
        <AccountLimitNotice />

        {sites.isPending ? (
          <SettingLoading>Loading your sites…</SettingLoading>
        ) : sites.isError ? (
          <SettingLoadError
            title="Your sites could not be loaded."
            onRetry={() => void sites.refetch()}
          />
        ) : !site ? (
          <Stack gap="3" maxW="xl">
            <Heading as="h2" size="md">
              No sites yet
            </Heading>
            <Text>Add your website to get its snippet and start counting visitors.</Text>
            <SiteForm onDone={(added) => selectSite(added.id)} />
          </Stack>
        ) : (
          <>
            <Stack gap="3">
              <HStack gap="2" align="end" flexWrap="wrap">
                <SiteSelect sites={list} value={site.id} onChange={selectSite} />
                <Button
                  size="sm"
                  variant="outline"
                  aria-expanded={panel === 'snippet'}
                  onClick={() => setPanel(panel === 'snippet' ? null : 'snippet')}
                >
                  Snippet
                </Button>
                <Button
                  size="sm"
                  variant="outline"
                  aria-expanded={panel === 'share'}
                  onClick={() => setPanel(panel === 'share' ? null : 'share')}
                >
                  Share
                </Button>
                <Button
                  size="sm"
                  variant="outline"
                  aria-expanded={panel === 'edit'}
                  onClick={() => setPanel(panel === 'edit' ? null : 'edit')}
                >
                  Edit site
                </Button>
                <Button
                  size="sm"
                  variant="outline"
                  colorPalette="red"
                  onClick={() => setDeleting(site)}
                >
                  Delete site
                </Button>
                <Button
                  size="sm"
                  colorPalette="teal"
                  aria-expanded={panel === 'add'}
                  onClick={() => setPanel(panel === 'add' ? null : 'add')}
                >
                  + Add site
                </Button>
              </HStack>
              <Text fontSize="sm" color="fg.muted">
                {site.domains.join(', ')} · raw events kept {site.retention_days} days
              </Text>
              {panel === 'snippet' && (
                <SnippetBox siteId={site.id} siteName={visibleText(site.name)} />
              )}
              {panel === 'share' && <SharePanel key={site.id} site={site} />}
              {panel === 'edit' && (
                <SiteForm
                  key={site.id}
                  site={site}
                  onDone={() => setPanel(null)}
                  onCancel={() => setPanel(null)}
                />
              )}
              {panel === 'add' && (
                <SiteForm
                  onDone={(added) => selectSite(added.id)}
                  onCancel={() => setPanel(null)}
                />
              )}
            </Stack>
            <SiteStats
              key={site.id}
              site={site}
              range={range}
              filters={filters}
              onPreset={setPreset}
              onCustom={setCustom}
              onFilter={setFilter}
            />
          </>
        )}
      </Stack>
      <DeleteSiteDialog
        site={deleting}
        onClose={() => setDeleting(null)}
        onDeleted={() => {
          const next = new URLSearchParams(params);
          next.delete('site');
          for (const key of FILTER_KEYS) next.delete(key);
          setPanel(null);
          update(next);
        }}
      />
    </Container>
  );
}

function SiteSelect({
  sites,
  value,
  onChange,
}: {
  sites: readonly AnalyticsSite[];
  value: string;
  onChange: (id: string) => void;
}) {
  const id = useId();
  return (
    <Field.Root width={{ base: 'full', sm: '16rem' }}>
      <Field.Label htmlFor={id}>Site</Field.Label>
      <NativeSelect.Root size="sm">
        <NativeSelect.Field
          id={id}
          value={value}
          onChange={(event) => onChange(event.target.value)}
        >
          {sites.map((site) => (
            <option key={site.id} value={site.id}>
              {visibleText(site.name)}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
    </Field.Root>
  );
}

function DeleteSiteDialog({
  site: requested,
  onClose,
  onDeleted,
}: {
  site: AnalyticsSite | null;
  onClose: () => void;
  onDeleted: () => void;
}) {
  // Kept while the dialog animates out.
  const [site, setSite] = useState(requested);
  if (requested && requested !== site) setSite(requested);
  const remove = useDeleteSite();
  const [error, setError] = useState<string | null>(null);

  function close() {
    setError(null);
    remove.reset();
    onClose();
  }

  async function confirm() {
    if (!site) return;
    setError(null);
    try {
      await remove.mutateAsync(site.id);
      notify('success', 'Site deleted', `"${visibleText(site.name)}" and its stats were deleted.`);
      onDeleted();
      close();
    } catch (failure) {
      setError(describeSiteError(failure, 'delete the site'));
    }
  }

  return (
    <ConfirmDialog
      open={requested !== null}
      title={site ? `Delete "${visibleText(site.name)}"?` : ''}
      description="Its events and stats are deleted with it, and its snippet stops counting. This cannot be undone."
      confirmLabel="Delete"
      pending={remove.isPending}
      error={error}
      onConfirm={() => void confirm()}
      onClose={close}
    />
  );
}
