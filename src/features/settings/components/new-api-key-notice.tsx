// Shows a just-created API key, the one time it can be seen: a warning, the key in a read-only
// field that receives focus (so it is announced and easy to select), a copy button and "Done".
import { useEffect, useId, useRef } from 'react';
import { Alert, Button, Field, HStack, Input, Stack } from '@chakra-ui/react';
import { CopyButton } from '../../../components/copy-button';
import type { CreatedApiKey } from '../api/create-api-key';
import { SCOPE_LABELS } from '../api-key-texts';

export function NewApiKeyNotice({
  created,
  onDone,
}: {
  created: CreatedApiKey;
  onDone: () => void;
}) {
  const field = useRef<HTMLInputElement>(null);
  const hintId = useId();
  useEffect(() => {
    field.current?.focus();
    field.current?.select();
  }, [created.key]);

  return (
    <Stack gap="4">
      <Alert.Root status="warning" borderRadius="md">
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Title>Copy your new key now</Alert.Title>
          <Alert.Description>
            This is the only time “{created.name}” ({SCOPE_LABELS[created.scope]}) is shown: only a
            hash of it is stored. Keep it in your server’s secrets, never in a web page. If you lose
            it, revoke it and create another.
          </Alert.Description>
        </Alert.Content>
      </Alert.Root>
      <Field.Root>
        <Field.Label>New API key</Field.Label>
        <HStack gap="2" width="full" flexWrap={{ base: 'wrap', sm: 'nowrap' }}>
          <Input
            ref={field}
            readOnly
            value={created.key}
            fontFamily="mono"
            fontSize="sm"
            aria-describedby={hintId}
            onFocus={(event) => event.currentTarget.select()}
          />
          <CopyButton text={created.key} label="Copy key" flexShrink={0} />
        </HStack>
        <Field.HelperText id={hintId}>
          Send it as <code>Authorization: Bearer {created.prefix}…</code>
        </Field.HelperText>
      </Field.Root>
      <div>
        <Button variant="outline" onClick={onDone}>
          I have copied it
        </Button>
      </div>
    </Stack>
  );
}
