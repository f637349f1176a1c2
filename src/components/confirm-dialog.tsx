// A centred alert dialog that asks before an action that cannot be undone: a question, what
// happens, the server's refusal (if any) inline, and Cancel beside the red confirm button. The
// caller owns the request; the dialog cannot be dismissed while it runs. Closed, it hands the
// focus back to what opened it, or to the page's content when its action removed that
// (return-focus.ts).
import type { ReactNode } from 'react';
import { Alert, Button, Dialog, Portal } from '@chakra-ui/react';
import { useReturnFocus } from './return-focus';

export interface ConfirmDialogProps {
  open: boolean;
  /** The question, e.g. 'Revoke “CRM sync”?'. */
  title: ReactNode;
  /** What happens, in a sentence or two. */
  description: ReactNode;
  confirmLabel: string;
  /** The request is running: the confirm button spins, nothing closes the dialog. */
  pending: boolean;
  /** The last refusal, shown above the buttons; null when there is none. */
  error: string | null;
  onConfirm: () => void;
  onClose: () => void;
  /**
   * Asked over another dialog that stays open (the Edit dialog). Chakra then hands the focus back
   * to the opener itself; a `finalFocusEl` on such a nested dialog leaves the outer dialog's layer
   * catching every click once this one has closed.
   */
  overDialog?: boolean;
}

export function ConfirmDialog({
  open,
  title,
  description,
  confirmLabel,
  pending,
  error,
  onConfirm,
  onClose,
  overDialog = false,
}: ConfirmDialogProps) {
  const finalFocusEl = useReturnFocus(open);
  return (
    <Dialog.Root
      role="alertdialog"
      open={open}
      finalFocusEl={overDialog ? undefined : finalFocusEl}
      onOpenChange={(details) => !details.open && !pending && onClose()}
      size="sm"
      placement="center"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner px="4">
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>{title}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body display="flex" flexDirection="column" gap="3">
              <Dialog.Description>{description}</Dialog.Description>
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
              <Button variant="outline" onClick={onClose} disabled={pending}>
                Cancel
              </Button>
              <Button colorPalette="red" onClick={onConfirm} loading={pending}>
                {confirmLabel}
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
