// Asks when a draft should go out: a date and time in the owner's own time zone (the browser's),
// which must be in the future. The caller sends the instant it stands for.
import { useId, useState } from 'react';
import { Alert, Button, Dialog, Field, Input, Portal, Text } from '@chakra-ui/react';
import { useReturnFocus } from '../../../components/return-focus';

/** A `datetime-local` value (local wall time) as an instant; null when it is not one. */
function localInputToIso(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value)) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** An instant as a `datetime-local` value in the browser's zone, to the minute. */
function isoToLocalInput(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

export function ScheduleDialog({
  open,
  listName,
  pending,
  error,
  onSchedule,
  onClose,
}: {
  open: boolean;
  listName: string;
  pending: boolean;
  /** The last refusal of the server, in words; null when there is none. */
  error: string | null;
  onSchedule: (iso: string) => void;
  onClose: () => void;
}) {
  const finalFocusEl = useReturnFocus(open);
  const inputId = useId();
  const [value, setValue] = useState(() => isoToLocalInput(new Date(Date.now() + 3_600_000)));
  const [problem, setProblem] = useState<string | null>(null);
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;

  function submit() {
    const iso = localInputToIso(value);
    if (!iso) return setProblem('Enter a date and a time.');
    if (Date.parse(iso) <= Date.now()) return setProblem('Pick a time in the future.');
    setProblem(null);
    onSchedule(iso);
  }

  return (
    <Dialog.Root
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
            <form
              noValidate
              onSubmit={(event) => {
                event.preventDefault();
                submit();
              }}
            >
              <Dialog.Header>
                <Dialog.Title>Schedule the campaign</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body display="flex" flexDirection="column" gap="3">
                <Dialog.Description>
                  It goes to the confirmed subscribers {listName} has at that time.
                </Dialog.Description>
                <Field.Root invalid={Boolean(problem)} required>
                  <Field.Label htmlFor={inputId}>Send at</Field.Label>
                  <Input
                    id={inputId}
                    type="datetime-local"
                    value={value}
                    onChange={(event) => setValue(event.target.value)}
                  />
                  <Field.HelperText>Your time zone: {zone.replace(/_/g, ' ')}</Field.HelperText>
                  <Field.ErrorText>{problem}</Field.ErrorText>
                </Field.Root>
                {error && (
                  <Alert.Root status="error" role="alert">
                    <Alert.Indicator />
                    <Alert.Title>{error}</Alert.Title>
                  </Alert.Root>
                )}
                <Text fontSize="sm" color="fg.muted">
                  Until then you can unschedule it and edit it again.
                </Text>
              </Dialog.Body>
              <Dialog.Footer>
                <Button variant="outline" onClick={onClose} disabled={pending}>
                  Cancel
                </Button>
                <Button type="submit" colorPalette="teal" loading={pending}>
                  Schedule
                </Button>
              </Dialog.Footer>
            </form>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
