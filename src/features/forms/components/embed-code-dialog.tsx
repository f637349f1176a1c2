// The embed code of one form in a dialog: opened from a form's card, and right after a form is
// created (then with a short note that the form is ready, and where its messages are e-mailed: or
// that the target address must first be confirmed through the link just mailed to it).
import { useState } from 'react';
import { Alert, Button, CloseButton, Dialog, Portal, Stack, Text } from '@chakra-ui/react';
import { useReturnFocus } from '../../../components/return-focus';
import { visibleText } from '../../../lib/visible-text';
import type { Form } from '../api/get-forms';
import { pendingConfirmationText } from '../form-texts';
import { EmbedCodeBox } from './embed-code-box';

export interface EmbedCodeDialogProps {
  /** The form whose code is shown; the dialog is open while there is one. */
  form: Form | null;
  /** Just created: the dialog says so. */
  created?: boolean;
  onClose: () => void;
}

export function EmbedCodeDialog({ form: requested, created, onClose }: EmbedCodeDialogProps) {
  // The last form shown stays rendered while the dialog animates out after closing.
  const [form, setForm] = useState(requested);
  if (requested && requested !== form) setForm(requested);

  // Closed, the focus goes back to what opened it: after a form was created, to what opened the
  // New Form dialog, which is gone by now (return-focus.ts).
  const finalFocusEl = useReturnFocus(requested !== null);

  return (
    <Dialog.Root
      open={requested !== null}
      onOpenChange={(details) => !details.open && onClose()}
      finalFocusEl={finalFocusEl}
      size="lg"
      scrollBehavior="inside"
      lazyMount
      unmountOnExit
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            {form && (
              <>
                <Dialog.Header>
                  <Dialog.Title>
                    {created
                      ? `"${visibleText(form.name)}" is ready`
                      : `Embed "${visibleText(form.name)}"`}
                  </Dialog.Title>
                </Dialog.Header>
                <Dialog.Body>
                  <Stack gap="4">
                    <Dialog.Description>
                      {created ? 'Your form was created. ' : ''}Paste this code into a page on{' '}
                      <Text as="span" fontWeight="medium" wordBreak="break-all">
                        {form.allowed_origin}
                      </Text>
                      : posts from any other site are refused.
                    </Dialog.Description>
                    {created && !form.target_verified && (
                      <Alert.Root status="warning" data-testid="confirmation-pending">
                        <Alert.Indicator />
                        <Alert.Content>
                          <Alert.Title wordBreak="break-all">
                            {pendingConfirmationText(form.target_email)}
                          </Alert.Title>
                          <Alert.Description>
                            We have e-mailed a confirmation link to that address. Until it is opened
                            there, messages are stored in your dashboard but not e-mailed; once it
                            is, you can send them from the form’s card.
                          </Alert.Description>
                        </Alert.Content>
                      </Alert.Root>
                    )}
                    {created && form.target_verified && (
                      <Text fontSize="sm" color="fg.muted" wordBreak="break-all">
                        New messages are e-mailed to {form.target_email}.
                      </Text>
                    )}
                    <EmbedCodeBox form={form} />
                  </Stack>
                </Dialog.Body>
                <Dialog.Footer>
                  <Dialog.ActionTrigger asChild>
                    <Button variant="outline">Done</Button>
                  </Dialog.ActionTrigger>
                </Dialog.Footer>
                <Dialog.CloseTrigger asChild>
                  <CloseButton size="sm" aria-label="Close" />
                </Dialog.CloseTrigger>
              </>
            )}
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
