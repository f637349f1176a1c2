// Deletes the account and all its data, after the user types their e-mail (or DELETE) in a
// confirmation dialog. Afterwards the browser is signed out and goes to the home page.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import {
  Button,
  CloseButton,
  Dialog,
  Field,
  Input,
  List,
  Portal,
  Stack,
  Text,
} from '@chakra-ui/react';
import { TrashIcon } from 'lucide-react';
import { notify } from '../../../components/toaster';
import { paths } from '../../../config/paths';
import { useAuth } from '../../../lib/auth';
import { useDeleteAccount } from '../api/delete-account';
import { endDeletedSession } from '../api/end-deleted-session';
import { confirmsDeletion, DELETE_WORD } from '../delete-confirmation';
import { errorMessage, InlineError } from './settings-section';

export function DeleteAccountSection() {
  const { user } = useAuth();
  const navigate = useNavigate();
  const remove = useDeleteAccount();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const email = user?.email ?? undefined;
  const confirmed = confirmsDeletion(typed, email);

  // The session is ended once the page has left /settings: signed out while still there, the
  // route guard would send the browser to the login page instead of home. Navigations are React
  // transitions, so leaving is only certain when this component unmounts.
  const deleted = useRef(false);
  useEffect(() => {
    return () => {
      if (deleted.current) void endDeletedSession();
    };
  }, []);

  function changeOpen(next: boolean) {
    // The dialog stays open while the deletion runs: closing it would hide its outcome.
    if (!next && remove.isPending) return;
    setOpen(next);
    if (!next) {
      setTyped('');
      setError(null);
    }
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!confirmed || remove.isPending) return;
    setError(null);
    try {
      await remove.mutateAsync();
    } catch (caught) {
      setError(errorMessage(caught, 'Your account could not be deleted.'));
      return;
    }
    deleted.current = true;
    navigate(paths.home, { replace: true });
    notify('success', 'Your account has been deleted', 'Your forms and messages are gone too.');
  }

  return (
    <Stack gap="4" align="flex-start">
      <Text fontSize="sm">
        Deletes your account, every form you created and every message they received. This cannot be
        undone.
      </Text>
      <Dialog.Root
        role="alertdialog"
        open={open}
        onOpenChange={(details) => changeOpen(details.open)}
        initialFocusEl={() => inputRef.current}
        placement="center"
        lazyMount
        unmountOnExit
      >
        <Dialog.Trigger asChild>
          <Button colorPalette="red" variant="outline">
            <TrashIcon aria-hidden /> Delete account
          </Button>
        </Dialog.Trigger>
        <Portal>
          <Dialog.Backdrop />
          <Dialog.Positioner px="4">
            <Dialog.Content>
              <form onSubmit={submit} noValidate>
                <Dialog.Header>
                  <Dialog.Title>Delete your account?</Dialog.Title>
                </Dialog.Header>
                <Dialog.Body>
                  <Stack gap="4">
                    <Dialog.Description>This permanently deletes, right away:</Dialog.Description>
                    <List.Root ps="5" fontSize="sm" gap="1">
                      <List.Item>your account and profile,</List.Item>
                      <List.Item>all your forms — their endpoints stop accepting posts,</List.Item>
                      <List.Item>every message your forms received.</List.Item>
                    </List.Root>
                    <Field.Root>
                      <Field.Label>Type your e-mail to confirm</Field.Label>
                      <Input
                        ref={inputRef}
                        autoComplete="off"
                        autoCapitalize="off"
                        spellCheck={false}
                        value={typed}
                        onChange={(event) => setTyped(event.target.value)}
                      />
                      <Field.HelperText>
                        Type{' '}
                        {email ? (
                          <>
                            <strong>{email}</strong> or{' '}
                          </>
                        ) : null}
                        <strong>{DELETE_WORD}</strong>.
                      </Field.HelperText>
                    </Field.Root>
                    <InlineError message={error} />
                  </Stack>
                </Dialog.Body>
                <Dialog.Footer>
                  <Dialog.ActionTrigger asChild>
                    <Button variant="outline" disabled={remove.isPending}>
                      Cancel
                    </Button>
                  </Dialog.ActionTrigger>
                  <Button
                    type="submit"
                    colorPalette="red"
                    disabled={!confirmed}
                    loading={remove.isPending}
                  >
                    Delete my account
                  </Button>
                </Dialog.Footer>
              </form>
              <Dialog.CloseTrigger asChild disabled={remove.isPending}>
                <CloseButton size="sm" aria-label="Close" />
              </Dialog.CloseTrigger>
            </Dialog.Content>
          </Dialog.Positioner>
        </Portal>
      </Dialog.Root>
    </Stack>
  );
}
