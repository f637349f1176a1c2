// Asks before revoking an API key, naming it and what stops working, then revokes it.
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { notify } from '../../../components/toaster';
import type { ApiKey } from '../api/get-api-keys';
import { useRevokeApiKey } from '../api/revoke-api-key';
import { errorMessage } from './settings-section';

export function RevokeApiKeyDialog({
  apiKey: requested,
  onClose,
}: {
  /** The key to revoke; the dialog is open while there is one. */
  apiKey: ApiKey | null;
  onClose: () => void;
}) {
  // Kept while the dialog animates out, after the list has dropped the key.
  const [apiKey, setApiKey] = useState(requested);
  if (requested && requested !== apiKey) setApiKey(requested);
  const revoke = useRevokeApiKey();
  const [error, setError] = useState<string | null>(null);

  function close() {
    setError(null);
    revoke.reset();
    onClose();
  }

  async function confirm() {
    if (!apiKey) return;
    setError(null);
    try {
      await revoke.mutateAsync(apiKey.id);
      notify('success', 'API key revoked', `"${apiKey.name}" no longer works.`);
      close();
    } catch (failure) {
      setError(errorMessage(failure, 'The API key could not be revoked.'));
    }
  }

  return (
    <ConfirmDialog
      open={requested !== null}
      title={`Revoke “${apiKey?.name ?? ''}”?`}
      description="Programs using this key get 401 Unauthorized from their next request. This cannot be undone."
      confirmLabel="Revoke key"
      pending={revoke.isPending}
      error={error}
      onConfirm={() => void confirm()}
      onClose={close}
    />
  );
}
