// Asks before cancelling a booking, with an optional message for the visitor, which their
// cancellation e-mail carries. The dialog cannot be dismissed while the request runs; the
// outcome is a toast, a refusal stays in the dialog.
import { useId, useState } from 'react';
import { Alert, Button, Dialog, Field, Portal, Textarea } from '@chakra-ui/react';
import { useReturnFocus } from '../../../components/return-focus';
import { notify } from '../../../components/toaster';
import { visibleText } from '../../../lib/visible-text';
import { useCancelBooking } from '../api/cancel-booking';
import { describeBookingError } from '../booking-errors';
import type { Booking } from '../bookings';

const MESSAGE_MAX = 1000;

export function CancelBookingDialog({
  booking,
  when,
  onClose,
}: {
  /** The booking asked about; null: closed. */
  booking: Booking | null;
  /** When it is, as the list shows it. */
  when: string;
  onClose: () => void;
}) {
  const open = booking !== null;
  const finalFocusEl = useReturnFocus(open);
  const cancel = useCancelBooking();
  const [message, setMessage] = useState('');
  const [error, setError] = useState<string | null>(null);
  const messageId = useId();
  const pending = cancel.isPending;

  function close() {
    if (pending) return;
    setMessage('');
    setError(null);
    cancel.reset();
    onClose();
  }

  async function confirm() {
    if (!booking) return;
    setError(null);
    const name = visibleText(booking.name);
    try {
      const outcome = await cancel.mutateAsync({ bookingId: booking.id, message });
      if (outcome === 'cancelled') {
        notify('success', 'Booking cancelled', `${name} is told by e-mail.`);
      } else if (outcome === 'already_cancelled') {
        notify('info', 'Already cancelled', `The booking with ${name} was cancelled before.`);
      } else {
        notify('error', 'Booking not found', 'It may have been deleted with its booking form.');
      }
      setMessage('');
      cancel.reset();
      onClose();
    } catch (caught) {
      setError(describeBookingError(caught, 'cancel the booking'));
    }
  }

  return (
    <Dialog.Root
      role="alertdialog"
      open={open}
      finalFocusEl={finalFocusEl}
      onOpenChange={(details) => !details.open && close()}
      size="sm"
      placement="center"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner px="4">
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>
                Cancel the booking with {booking ? visibleText(booking.name) : ''}?
              </Dialog.Title>
            </Dialog.Header>
            <Dialog.Body display="flex" flexDirection="column" gap="3">
              <Dialog.Description>
                {when}. The visitor gets an e-mail that cancels it in their calendar; the time
                becomes free to book again.
              </Dialog.Description>
              <Field.Root>
                <Field.Label htmlFor={messageId}>Message to the visitor (optional)</Field.Label>
                <Textarea
                  id={messageId}
                  value={message}
                  maxLength={MESSAGE_MAX}
                  rows={3}
                  placeholder="Sorry, something came up. Please pick another time."
                  onChange={(event) => setMessage(event.target.value)}
                  disabled={pending}
                />
                <Field.HelperText>Included in the cancellation e-mail.</Field.HelperText>
              </Field.Root>
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
              <Button variant="outline" onClick={close} disabled={pending}>
                Keep booking
              </Button>
              <Button colorPalette="red" onClick={() => void confirm()} loading={pending}>
                Cancel booking
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
