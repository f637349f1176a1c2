// Asks before a visitor cancels: what happens, an optional reason for the host, the refusal of a
// failed try, and "Keep booking" beside the red "Cancel booking" (a plain "Cancel" there would
// read as the action itself). The dialog cannot be dismissed while the request runs.
import { Alert, Button, Dialog, Field, Portal, Stack, Text, Textarea } from '@chakra-ui/react';
import { useReturnFocus } from '../../../../components/return-focus';
import { BOOKING_LIMITS } from '../booking-schema';

export function CancelDialog({
  open,
  reason,
  onReason,
  pending,
  error,
  onConfirm,
  onClose,
}: {
  open: boolean;
  reason: string;
  onReason: (reason: string) => void;
  pending: boolean;
  error: string | null;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const finalFocusEl = useReturnFocus(open);
  return (
    <Dialog.Root
      role="alertdialog"
      open={open}
      finalFocusEl={finalFocusEl}
      onOpenChange={(details) => !details.open && !pending && onClose()}
      size="sm"
      placement="center"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner px="4">
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>Cancel this booking?</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap="4">
                <Dialog.Description>
                  The host is told and the time becomes free for others. This cannot be undone.
                </Dialog.Description>
                <Field.Root>
                  <Field.Label>
                    Reason{' '}
                    <Text as="span" color="fg.muted" fontWeight="normal">
                      (optional, sent to the host)
                    </Text>
                  </Field.Label>
                  <Textarea
                    rows={3}
                    maxLength={BOOKING_LIMITS.reason}
                    value={reason}
                    onChange={(event) => onReason(event.target.value)}
                  />
                </Field.Root>
                {error && (
                  <Alert.Root status="error" role="alert">
                    <Alert.Indicator />
                    <Alert.Content>
                      <Alert.Title>{error}</Alert.Title>
                    </Alert.Content>
                  </Alert.Root>
                )}
              </Stack>
            </Dialog.Body>
            <Dialog.Footer flexWrap="wrap">
              <Button variant="outline" onClick={onClose} disabled={pending}>
                Keep booking
              </Button>
              <Button
                colorPalette="red"
                onClick={onConfirm}
                loading={pending}
                loadingText="Cancelling…"
              >
                Cancel booking
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
