// Asks before deleting a form, naming it and the messages that go with it, then deletes it.
import { useState } from 'react';
import { Alert, Button, Dialog, Portal } from '@chakra-ui/react';
import { notify } from '../../../components/toaster';
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
      notify('success', 'Form deleted', `"${form.name}" and its messages were deleted.`);
      close();
    } catch (failure) {
      setError(describeFormError(failure, 'delete the form').message);
    }
  }

  return (
    <Dialog.Root
      role="alertdialog"
      open={requested !== null}
      onOpenChange={(details) => !details.open && !remove.isPending && close()}
      size="sm"
      placement="center"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            {form && (
              <>
                <Dialog.Header>
                  <Dialog.Title>{deleteQuestion(form.name, counts)}</Dialog.Title>
                </Dialog.Header>
                <Dialog.Body display="flex" flexDirection="column" gap="3">
                  <Dialog.Description>
                    The form stops accepting submissions at once, and its messages are deleted with
                    it. This cannot be undone.
                  </Dialog.Description>
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
                  <Button variant="outline" onClick={close} disabled={remove.isPending}>
                    Cancel
                  </Button>
                  <Button
                    colorPalette="red"
                    onClick={() => void confirm()}
                    loading={remove.isPending}
                  >
                    Delete
                  </Button>
                </Dialog.Footer>
              </>
            )}
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
