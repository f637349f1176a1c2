// The settings page's API keys: create a key (shown once), list the active ones with their scope
// and last use, and revoke them.
import { useState } from 'react';
import { Stack } from '@chakra-ui/react';
import { useApiKeys, type ApiKey } from '../api/get-api-keys';
import type { CreatedApiKey } from '../api/create-api-key';
import { ApiKeyList } from './api-key-list';
import { CreateApiKeyForm } from './create-api-key-form';
import { NewApiKeyNotice } from './new-api-key-notice';
import { RevokeApiKeyDialog } from './revoke-api-key-dialog';

export function ApiKeysSection() {
  const keys = useApiKeys();
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);

  return (
    <Stack gap="6">
      {created ? (
        <NewApiKeyNotice created={created} onDone={() => setCreated(null)} />
      ) : (
        <CreateApiKeyForm onCreated={setCreated} />
      )}
      <ApiKeyList
        keys={keys.data}
        loading={keys.isPending}
        error={keys.isError ? keys.error : null}
        onRetry={() => void keys.refetch()}
        retrying={keys.isFetching}
        onRevoke={setRevoking}
      />
      <RevokeApiKeyDialog apiKey={revoking} onClose={() => setRevoking(null)} />
    </Stack>
  );
}
