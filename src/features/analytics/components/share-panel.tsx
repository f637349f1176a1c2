// A site's public share link: create it, copy it, replace it with a new one or revoke it. Anyone
// holding the link sees the site's stats read-only (/share/analytics/<token>) without signing in;
// a new link or a revocation makes the old one stop working at once.
import { useState } from 'react';
import { Button, HStack, Stack, Text } from '@chakra-ui/react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { CopyButton } from '../../../components/copy-button';
import { SettingLoadError, SettingLoading } from '../../../components/setting-states';
import { TextField } from '../../../components/text-field';
import { notify } from '../../../components/toaster';
import { visibleText } from '../../../lib/visible-text';
import { useCreateShare } from '../api/create-share';
import { useShare } from '../api/get-share';
import type { AnalyticsSite } from '../api/get-sites';
import { useRevokeShare } from '../api/revoke-share';
import { shareUrl } from '../share-link';
import { describeSiteError } from '../site-domains';

type Confirm = 'revoke' | 'rotate' | null;

export function SharePanel({ site }: { site: AnalyticsSite }) {
  const share = useShare(site.id);
  const create = useCreateShare();
  const revoke = useRevokeShare();
  const [confirm, setConfirm] = useState<Confirm>(null);
  const [error, setError] = useState<string | null>(null);
  const name = visibleText(site.name);

  async function makeLink(replacing: boolean) {
    setError(null);
    try {
      await create.mutateAsync(site.id);
      notify(
        'success',
        replacing ? 'New public link made' : 'Public link created',
        replacing
          ? 'The old link no longer works.'
          : `Anyone with the link can see the stats of ${name}.`,
      );
      setConfirm(null);
    } catch (failure) {
      const message = describeSiteError(failure, 'create the link');
      if (replacing) setError(message);
      else notify('error', 'The link could not be created', message);
    }
  }

  async function revokeLink() {
    setError(null);
    try {
      await revoke.mutateAsync(site.id);
      notify('success', 'Public link revoked', 'The link no longer works.');
      setConfirm(null);
    } catch (failure) {
      setError(describeSiteError(failure, 'revoke the link'));
    }
  }

  function closeDialog() {
    setError(null);
    setConfirm(null);
  }

  const token = share.data;
  return (
    <Stack gap="3" borderWidth="1px" borderRadius="md" p="4" data-testid="share-panel">
      <Text fontWeight="semibold" as="h2">
        Public link
      </Text>
      {share.isPending ? (
        <SettingLoading>Loading the public link…</SettingLoading>
      ) : share.isError ? (
        <SettingLoadError
          title="The public link could not be loaded."
          onRetry={() => void share.refetch()}
        />
      ) : !token ? (
        <Stack gap="3" align="start">
          <Text fontSize="sm" color="fg.muted">
            A public link shows the stats of {name} to anyone who has it, without signing in: the
            numbers, chart and top lists, but not the snippet or the site&apos;s settings. You can
            revoke it at any time.
          </Text>
          <Button
            size="sm"
            colorPalette="teal"
            loading={create.isPending}
            loadingText="Creating…"
            onClick={() => void makeLink(false)}
          >
            Create a public link
          </Button>
        </Stack>
      ) : (
        <Stack gap="3">
          <HStack gap="2" align="end" flexWrap="wrap">
            <TextField
              label="Anyone with this link can see the stats"
              readOnly
              size="sm"
              value={shareUrl(window.location.origin, token)}
              onFocus={(event) => event.currentTarget.select()}
              rootProps={{ flex: '1', minW: { base: 'full', sm: '20rem' } }}
            />
            <CopyButton
              text={shareUrl(window.location.origin, token)}
              accessibleLabel="public link"
            />
          </HStack>
          <HStack gap="2" flexWrap="wrap">
            <Button size="sm" variant="outline" onClick={() => setConfirm('rotate')}>
              New link
            </Button>
            <Button
              size="sm"
              variant="outline"
              colorPalette="red"
              onClick={() => setConfirm('revoke')}
            >
              Revoke
            </Button>
          </HStack>
        </Stack>
      )}
      <ConfirmDialog
        open={confirm !== null}
        title={confirm === 'rotate' ? 'Replace the public link?' : 'Revoke the public link?'}
        description={
          confirm === 'rotate'
            ? 'A new link is made and the current one stops working at once.'
            : 'The link stops working at once; whoever opens it sees that it no longer works.'
        }
        confirmLabel={confirm === 'rotate' ? 'Replace' : 'Revoke'}
        pending={create.isPending || revoke.isPending}
        error={error}
        onConfirm={() => void (confirm === 'rotate' ? makeLink(true) : revokeLink())}
        onClose={closeDialog}
      />
    </Stack>
  );
}
