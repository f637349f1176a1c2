// The blog's error state: what went wrong, and a way to try again.
import { Alert, Button } from '@chakra-ui/react';
import { RefreshCwIcon } from 'lucide-react';

export function RequestError({ title, onRetry }: { title: string; onRetry: () => void }) {
  return (
    <Alert.Root status="error" borderRadius="lg" alignItems="center" flexWrap="wrap" gap={3}>
      <Alert.Indicator />
      <Alert.Content flex="1" minW="12rem">
        <Alert.Title>{title}</Alert.Title>
        <Alert.Description>Check your connection and try again.</Alert.Description>
      </Alert.Content>
      <Button size="sm" variant="outline" onClick={onRetry}>
        <RefreshCwIcon aria-hidden="true" /> Try again
      </Button>
    </Alert.Root>
  );
}
