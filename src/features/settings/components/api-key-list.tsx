// The owner's active API keys: name, scope, visible prefix and dates, each with a revoke button;
// with loading, empty and error states.
import {
  Alert,
  Badge,
  Box,
  Button,
  Code,
  Flex,
  List,
  Skeleton,
  Stack,
  Text,
} from '@chakra-ui/react';
import type { ApiKey } from '../api/get-api-keys';
import { keyDates, SCOPE_LABELS } from '../api-key-texts';
import { errorMessage } from './settings-section';

export interface ApiKeyListProps {
  keys: ApiKey[] | undefined;
  loading: boolean;
  error: unknown;
  onRetry: () => void;
  retrying: boolean;
  onRevoke: (key: ApiKey) => void;
}

export function ApiKeyList({ keys, loading, error, onRetry, retrying, onRevoke }: ApiKeyListProps) {
  if (loading) {
    return (
      <Stack gap="3" aria-busy="true" aria-label="Loading API keys">
        <Skeleton h="14" />
        <Skeleton h="14" />
      </Stack>
    );
  }
  if (error) {
    return (
      <Alert.Root status="error" role="alert" borderRadius="md">
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Title>Your API keys could not be loaded.</Alert.Title>
          <Alert.Description>{errorMessage(error, 'Please try again.')}</Alert.Description>
        </Alert.Content>
        <Button size="sm" variant="outline" onClick={onRetry} loading={retrying} alignSelf="center">
          Try again
        </Button>
      </Alert.Root>
    );
  }
  if (!keys || keys.length === 0) {
    return (
      <Text color="fg.muted" fontSize="sm">
        No API keys yet. Create one to read your forms and entries from your own servers.
      </Text>
    );
  }
  return (
    <List.Root as="ul" listStyleType="none" gap="0" aria-label="Your API keys">
      {keys.map((key) => (
        <List.Item key={key.id} borderTopWidth="1px" py="3" _first={{ borderTopWidth: 0, pt: 0 }}>
          <Flex
            gap="3"
            align={{ base: 'flex-start', sm: 'center' }}
            justify="space-between"
            wrap="wrap"
          >
            <Box minW="0">
              <Flex gap="2" align="center" wrap="wrap">
                <Text fontWeight="semibold" wordBreak="break-word">
                  {key.name}
                </Text>
                <Badge
                  colorPalette={key.scope === 'read_write' ? 'orange' : 'gray'}
                  variant="subtle"
                >
                  {SCOPE_LABELS[key.scope]}
                </Badge>
              </Flex>
              <Text fontSize="sm" color="fg.muted">
                <Code fontSize="xs">{key.prefix}…</Code> · {keyDates(key)}
              </Text>
            </Box>
            <Button
              size="sm"
              variant="outline"
              colorPalette="red"
              onClick={() => onRevoke(key)}
              aria-label={`Revoke ${key.name}`}
            >
              Revoke
            </Button>
          </Flex>
        </List.Item>
      ))}
    </List.Root>
  );
}
