// Asks before messages are deleted for good.
import { ConfirmDialog } from '../../../components/confirm-dialog';

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
    <ConfirmDialog
      open={count > 0}
      title={one ? 'Delete this message?' : `Delete ${count} messages?`}
      description={`${one && sender ? `The message from ${sender} will be deleted. ` : ''}This cannot be undone.`}
      confirmLabel={one ? 'Delete message' : `Delete ${count} messages`}
      // The caller deletes after the dialog closes: nothing runs while it is open.
      pending={false}
      error={null}
      onConfirm={onConfirm}
      onClose={onCancel}
    />
  );
}
