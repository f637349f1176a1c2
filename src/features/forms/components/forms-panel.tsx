// The Forms tab: the owner's forms as cards (live), with create, edit, delete and embed code.
import { useEffect, useRef, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  EmptyState,
  Flex,
  Heading,
  SimpleGrid,
  Skeleton,
  SkeletonText,
  Stack,
  VStack,
} from '@chakra-ui/react';
import { FileTextIcon, PlusIcon } from 'lucide-react';
import { notify } from '../../../components/toaster';
import { useForms, type Form } from '../api/get-forms';
import { useAccountEmail } from '../api/get-account-email';
import { useHeldCounts } from '../api/held-notifications';
import { NO_MESSAGES, useFormCounts } from '../api/get-form-counts';
import { DeleteFormDialog } from './delete-form-dialog';
import { EmbedCodeDialog } from './embed-code-dialog';
import { FormCard } from './form-card';
import { FormDialog, type SettingsTabRenderers } from './form-dialog';
import { visibleText } from '../../../lib/visible-text';
import { confirmationNeededText } from '../form-texts';

/** With the Edit dialog's settings tabs for a form (other features' sections, from the app). */
export interface FormsPanelProps extends SettingsTabRenderers {
  /** Opens the Messages tab filtered to one form. */
  onOpenMessages: (formId: string) => void;
}

/** Which dialog is open, and for which form. */
type OpenDialog =
  { kind: 'create' } | { kind: 'edit' | 'delete' | 'embed'; form: Form; created?: boolean } | null;

const EMPTY_TEXT = 'No forms created yet. Start by adding a new form.';

export function FormsPanel({ onOpenMessages, ...settingsTabs }: FormsPanelProps) {
  const forms = useForms();
  const counts = useFormCounts();
  // Read early: the New Form dialog starts with it.
  useAccountEmail();
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const close = () => setDialog(null);

  const list = forms.data ?? [];
  // Messages kept while a target waited for its confirmation, read again as targets get confirmed.
  const verifiedIds = list.filter((f) => f.target_verified).map((f) => f.id);
  const held = useHeldCounts(verifiedIds.length > 0);
  const verifiedKey = verifiedIds.join();
  const refetchHeld = held.refetch;
  const seenVerified = useRef(verifiedKey);
  useEffect(() => {
    if (seenVerified.current === verifiedKey) return;
    // The first forms read enables the query, which then reads by itself.
    const first = seenVerified.current === '';
    seenVerified.current = verifiedKey;
    if (!first) void refetchHeld();
  }, [verifiedKey, refetchHeld]);
  // The form as the live list has it now (edited in another tab, say); the copy taken when the
  // dialog opened once it has left the list (deleted, or being deleted).
  const formFor = (kind: 'edit' | 'delete' | 'embed') =>
    dialog && dialog.kind === kind
      ? (list.find((f) => f.id === dialog.form.id) ?? dialog.form)
      : null;
  const countsOf = (id: string) =>
    counts.data ? (counts.data[id] ?? NO_MESSAGES) : counts.isError ? null : undefined;

  const deleting = formFor('delete');
  const embedding = formFor('embed');

  function openCreate() {
    setDialog({ kind: 'create' });
  }

  function saved(form: Form) {
    // A new address that is not confirmed yet gets a link by e-mail: say so where it happened.
    const newAddress =
      dialog?.kind !== 'edit' ||
      dialog.form.target_email.toLowerCase() !== form.target_email.toLowerCase();
    const confirmation =
      !form.target_verified && newAddress ? ` ${confirmationNeededText(form.target_email)}` : '';
    if (dialog?.kind === 'create') {
      notify(
        'success',
        'Form created',
        `"${visibleText(form.name)}" is ready to receive submissions.${confirmation}`,
      );
      // The created form's embed code follows at once (spec §2: 'Embed this form:').
      setDialog({ kind: 'embed', form, created: true });
    } else {
      notify('success', 'Changes saved', `"${visibleText(form.name)}" was updated.${confirmation}`);
      // The Edit dialog stays open, as after every tab's own Save (its Close button closes it),
      // now comparing the next save with this one.
      setDialog({ kind: 'edit', form });
    }
  }

  return (
    <Stack gap="6">
      <Flex justify="space-between" align="center" gap="4" wrap="wrap">
        <Heading as="h1" size="xl">
          Your Forms
        </Heading>
        <Button colorPalette="teal" onClick={openCreate}>
          + New Form
        </Button>
      </Flex>

      {forms.isPending ? (
        <FormsSkeleton />
      ) : forms.isError ? (
        <Alert.Root status="error" alignItems="center">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>Your forms could not be loaded.</Alert.Title>
            <Alert.Description>Check your connection and try again.</Alert.Description>
          </Alert.Content>
          <Button
            size="sm"
            variant="outline"
            onClick={() => void forms.refetch()}
            loading={forms.isFetching}
          >
            Retry
          </Button>
        </Alert.Root>
      ) : list.length === 0 ? (
        <EmptyState.Root borderWidth="1px" borderStyle="dashed" borderRadius="xl">
          <EmptyState.Content>
            <EmptyState.Indicator>
              <FileTextIcon aria-hidden />
            </EmptyState.Indicator>
            <VStack textAlign="center">
              <EmptyState.Title>{EMPTY_TEXT}</EmptyState.Title>
              <EmptyState.Description>
                Each form gets its own endpoint and embed code for your website.
              </EmptyState.Description>
            </VStack>
            <Button variant="outline" onClick={openCreate}>
              <PlusIcon aria-hidden /> Create your first form
            </Button>
          </EmptyState.Content>
        </EmptyState.Root>
      ) : (
        <SimpleGrid columns={{ base: 1, lg: 2 }} gap="4">
          {list.map((form) => (
            <FormCard
              key={form.id}
              form={form}
              counts={countsOf(form.id)}
              held={form.target_verified ? (held.data?.[form.id] ?? 0) : 0}
              onOpenMessages={() => onOpenMessages(form.id)}
              onEmbed={() => setDialog({ kind: 'embed', form })}
              onEdit={() => setDialog({ kind: 'edit', form })}
              onDelete={() => setDialog({ kind: 'delete', form })}
            />
          ))}
        </SimpleGrid>
      )}

      <FormDialog
        open={dialog?.kind === 'create' || formFor('edit') !== null}
        form={formFor('edit')}
        onClose={close}
        onSaved={saved}
        {...settingsTabs}
      />
      <DeleteFormDialog
        form={deleting}
        counts={deleting ? (countsOf(deleting.id) ?? undefined) : undefined}
        onClose={close}
      />
      <EmbedCodeDialog
        form={embedding}
        created={dialog?.kind === 'embed' && dialog.created}
        onClose={close}
      />
    </Stack>
  );
}

function FormsSkeleton() {
  return (
    <Box role="status" aria-label="Loading forms">
      <SimpleGrid columns={{ base: 1, lg: 2 }} gap="4" aria-hidden="true">
        {[0, 1].map((i) => (
          <Stack key={i} borderWidth="1px" borderRadius="lg" p="4" gap="3">
            <Skeleton h="6" w="40%" />
            <SkeletonText noOfLines={3} />
            <Skeleton h="8" w="70%" />
          </Stack>
        ))}
      </SimpleGrid>
    </Box>
  );
}
