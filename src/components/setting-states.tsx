// The pieces every separately saved part of a form's settings shows: its loading line, its load
// error with a retry, and the end of its form (the refusal of the last save, then the save button).
import type { ReactNode } from 'react';
import { Alert, Button, Spinner, Stack, Text } from '@chakra-ui/react';

export function SettingLoading({ children }: { children: ReactNode }) {
  return (
    <Stack direction="row" align="center" gap="2" role="status">
      <Spinner size="sm" />
      <Text fontSize="sm">{children}</Text>
    </Stack>
  );
}

export function SettingLoadError({ title, onRetry }: { title: string; onRetry: () => void }) {
  return (
    <Alert.Root status="error" role="alert">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>{title}</Alert.Title>
      </Alert.Content>
      <Button size="xs" variant="outline" onClick={onRetry}>
        Try again
      </Button>
    </Alert.Root>
  );
}

/** `error`: why the last save failed (Formik's status), shown until the next attempt. */
export function SettingSaveRow({
  error,
  saving,
  label,
}: {
  error: unknown;
  saving: boolean;
  label: string;
}) {
  return (
    <>
      {typeof error === 'string' && (
        <Alert.Root status="error" role="alert">
          <Alert.Indicator />
          <Alert.Title>{error}</Alert.Title>
        </Alert.Root>
      )}
      <div>
        <Button type="submit" size="sm" colorPalette="teal" loading={saving}>
          {label}
        </Button>
      </div>
    </>
  );
}
