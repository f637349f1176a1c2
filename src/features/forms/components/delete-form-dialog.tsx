// Asks before deleting a form, naming it and the messages that go with it, then deletes it.
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { notify } from '../../../components/toaster';
import { visibleText } from '../../../lib/visible-text';
import type { Form } from '../api/get-forms';
import type { FormCounts } from '../api/get-form-counts';
import { useDeleteForm } from '../api/delete-form';
import { describeFormError } from '../form-errors';
import { deleteQuestion } from '../form-texts';

export interface DeleteFormDialogProps {
  /** The form to delete; the dialog is open while there is one. */
  form: Form | null;
  /** Its message counts; undefined while unknown. */
  counts: Pick<FormCounts, 'total' | 'spam'> | undefined;
  onClose: () => void;
}

export function DeleteFormDialog({ form: requested, counts, onClose }: DeleteFormDialogProps) {
  // Kept while the dialog animates out, and while the list drops the card being deleted.
  const [form, setForm] = useState(requested);
  if (requested && requested !== form) setForm(requested);
  const remove = useDeleteForm();
  const [error, setError] = useState<string | null>(null);

  function close() {
    setError(null);
    remove.reset();
    onClose();
  }

  async function confirm() {
    if (!form) return;
    setError(null);
    try {
      await remove.mutateAsync(form.id);
      notify(
        'success',
        'Form deleted',
        `"${visibleText(form.name)}" and its messages were deleted.`,
      );
      close();
    } catch (failure) {
      setError(describeFormError(failure, 'delete the form').message);
    }
  }

  return (
    <ConfirmDialog
      open={requested !== null}
      title={form ? deleteQuestion(visibleText(form.name), counts) : ''}
      description="The form stops accepting submissions at once, and its messages are deleted with it. This cannot be undone."
      confirmLabel="Delete"
      pending={remove.isPending}
      error={error}
      onConfirm={() => void confirm()}
      onClose={close}
    />
  );
}
