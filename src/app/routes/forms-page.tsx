// /dashboard/forms: the tabs 'Forms' and 'Messages'. The tab lives in the URL (`?tab=messages`),
// so reload and back keep it; the messages feature keeps its own filters in the URL too.
import { useSearchParams } from 'react-router-dom';
import { Badge, Container, Tabs } from '@chakra-ui/react';
import { useDocumentTitle } from '../../components/use-document-title';
import { useForms } from '../../features/forms';
import { MessagesPanel, useUnreadCount } from '../../features/messages';
import { UsageBanner } from '../../features/plans';
import { MessageFiles } from '../../features/uploads';
import type { EntryFile } from '../../config/uploads';
import { FormsTab } from './forms-tab';

type Tab = 'forms' | 'submissions';

// A message's files in its drawer: the uploads feature's list inside the messages feature's drawer.
const renderFiles = (files: readonly EntryFile[]) => <MessageFiles files={files} />;

export function FormsPage() {
  const [params, setParams] = useSearchParams();
  const tab: Tab = params.get('tab') === 'messages' ? 'submissions' : 'forms';
  useDocumentTitle(tab === 'forms' ? 'Your Forms' : 'Messages');
  const forms = useForms();
  const unread = useUnreadCount();

  function selectTab(next: Tab) {
    if (next === tab) return;
    // A new tab starts without the other tab's filters.
    setParams(next === 'submissions' ? { tab: 'messages' } : {});
  }

  function openMessages(formId: string) {
    setParams({ tab: 'messages', form: formId });
  }

  return (
    <Container maxW="6xl" py={{ base: '6', md: '8' }} px={{ base: '4', md: '6' }}>
      <UsageBanner />
      <Tabs.Root
        value={tab}
        onValueChange={(details) => selectTab(details.value as Tab)}
        variant="line"
        lazyMount
      >
        <Tabs.List>
          <Tabs.Trigger value="forms">Forms</Tabs.Trigger>
          <Tabs.Trigger value="submissions">
            Messages
            {unread ? (
              <Badge colorPalette="teal" variant="solid" size="sm" aria-label={`${unread} unread`}>
                {unread}
              </Badge>
            ) : null}
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="forms" pt="6">
          <FormsTab onOpenMessages={openMessages} />
        </Tabs.Content>
        <Tabs.Content value="submissions" pt="6">
          <MessagesPanel forms={forms.data ?? []} renderFiles={renderFiles} />
        </Tabs.Content>
      </Tabs.Root>
    </Container>
  );
}
