// /dashboard/newsletter: the owner's lists (subscribers, signup form, import) and their campaigns,
// in two tabs; the tab is in the address (`?tab=campaigns`) so a link can open either.
import { useSearchParams } from 'react-router-dom';
import { Container, Heading, Stack, Tabs, Text } from '@chakra-ui/react';
import { useDocumentTitle } from '../../components/use-document-title';
import { CampaignsPanel } from './components/campaigns-panel';
import { ListsPanel } from './components/lists-panel';

type Tab = 'lists' | 'campaigns';

export function NewsletterPage() {
  useDocumentTitle('Newsletter');
  const [params, setParams] = useSearchParams();
  const tab: Tab = params.get('tab') === 'campaigns' ? 'campaigns' : 'lists';

  return (
    <Container maxW="6xl" py={{ base: '6', md: '8' }} px={{ base: '4', md: '6' }}>
      <Stack gap="1" mb="6">
        <Heading as="h1" size="2xl" letterSpacing="-0.02em">
          Newsletter
        </Heading>
        <Text fontSize="lg" color="fg.muted">
          Collect subscribers from your site and send them updates.
        </Text>
      </Stack>
      <Tabs.Root
        value={tab}
        onValueChange={(details) =>
          setParams(
            (current) => {
              const next = new URLSearchParams(current);
              if (details.value === 'campaigns') next.set('tab', 'campaigns');
              else next.delete('tab');
              return next;
            },
            { replace: true },
          )
        }
        variant="line"
        lazyMount
      >
        <Tabs.List>
          <Tabs.Trigger value="lists">Lists</Tabs.Trigger>
          <Tabs.Trigger value="campaigns">Campaigns</Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="lists" pt="5">
          <ListsPanel />
        </Tabs.Content>
        <Tabs.Content value="campaigns" pt="5">
          <CampaignsPanel />
        </Tabs.Content>
      </Tabs.Root>
    </Container>
  );
}
