// Asks before revoking an API key, naming it and what stops working, then revokes it.
import { useState } from 'react';
import { Alert, Button, Dialog, Portal } from '@chakra-ui/react';
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
    <Dialog.Root
      role="alertdialog"
      open={requested !== null}
      onOpenChange={(details) => !details.open && !revoke.isPending && close()}
      size="sm"
      placement="center"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            {apiKey && (
              <>
                <Dialog.Header>
                  <Dialog.Title>Revoke “{apiKey.name}”?</Dialog.Title>
                </Dialog.Header>
                <Dialog.Body display="flex" flexDirection="column" gap="3">
                  <Dialog.Description>
                    Programs using this key get 401 Unauthorized from their next request. This
                    cannot be undone.
                  </Dialog.Description>
                  {error && (
                    <Alert.Root status="error" role="alert">
                      <Alert.Indicator />
                      <Alert.Content>
                        <Alert.Title>{error}</Alert.Title>
                      </Alert.Content>
                    </Alert.Root>
                  )}
                </Dialog.Body>
                <Dialog.Footer>
                  <Button variant="outline" onClick={close} disabled={revoke.isPending}>
                    Cancel
                  </Button>
                  <Button
                    colorPalette="red"
                    onClick={() => void confirm()}
                    loading={revoke.isPending}
                  >
                    Revoke key
                  </Button>
                </Dialog.Footer>
              </>
            )}
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
