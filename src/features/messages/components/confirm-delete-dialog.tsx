// Asks before messages are deleted for good.
import { Button, Dialog, Portal } from '@chakra-ui/react';

export interface ConfirmDeleteDialogProps {
  /** How many messages would go; the dialog is closed when 0. */
  count: number;
  /** The sender, when one message would go. */
  sender?: string;
  onConfirm: () => void;
  onCancel: () => void;
}

export function ConfirmDeleteDialog({
  count,
  sender,
  onConfirm,
  onCancel,
}: ConfirmDeleteDialogProps) {
  const one = count === 1;
  return (
    <Dialog.Root
      role="alertdialog"
      open={count > 0}
      onOpenChange={(details) => {
        if (!details.open) onCancel();
      }}
      placement="center"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner px="4">
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>
                {one ? 'Delete this message?' : `Delete ${count} messages?`}
              </Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Dialog.Description>
                {one && sender ? `The message from ${sender} will be deleted. ` : ''}
                This cannot be undone.
              </Dialog.Description>
            </Dialog.Body>
            <Dialog.Footer>
              <Dialog.ActionTrigger asChild>
                <Button variant="outline">Cancel</Button>
              </Dialog.ActionTrigger>
              <Button colorPalette="red" onClick={onConfirm}>
                {one ? 'Delete message' : `Delete ${count} messages`}
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
