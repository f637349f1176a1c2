// The pricing page's fourth way in: run tinyback yourself, free and open source, following the
// README's deploy section in the project's repository.
import {
  Box,
  Button,
  Card,
  Flex,
  Heading,
  Icon,
  Stack,
  Text,
  type CardRootProps,
} from '@chakra-ui/react';
import { ServerIcon } from 'lucide-react';
import { BrandIcon } from '../../../components/brand-icon';
import { CheckList } from '../../../components/check-list';
import { SELF_HOSTING_GUIDE_URL } from '../../../config/site';

export function SelfHostCard(props: CardRootProps) {
  return (
    <Card.Root as="section" aria-labelledby="self-host-title" variant="subtle" {...props}>
      <Card.Body>
        <Flex direction={{ base: 'column', md: 'row' }} gap={{ base: '6', md: '10' }} align="start">
          <Box
            flexShrink={0}
            w="12"
            h="12"
            rounded="lg"
            bg="teal.700"
            color="white"
            display="flex"
            alignItems="center"
            justifyContent="center"
            aria-hidden
          >
            <Icon as={ServerIcon} boxSize="6" />
          </Box>
          <Stack gap="3" flex="1">
            <Heading as="h2" id="self-host-title" size="xl">
              Self-host it: free and open source
            </Heading>
            <Text color="fg.muted">
              tinyback runs on Supabase. Deploy the database, the form endpoint and the site to your
              own Supabase project, hosted or self-hosted, and keep every submission on
              infrastructure you control. No licence fee, no limits but your own.
            </Text>
            <CheckList
              items={[
                'The same form endpoint, dashboard and live inbox',
                'Your data in your own Postgres',
                'Open-source code you can read and change',
              ]}
            />
          </Stack>
          <Button
            asChild
            colorPalette="teal"
            variant="outline"
            size="lg"
            alignSelf={{ md: 'center' }}
          >
            <a href={SELF_HOSTING_GUIDE_URL}>
              <BrandIcon name="github" /> Read the deploy guide
            </a>
          </Button>
        </Flex>
      </Card.Body>
    </Card.Root>
  );
}
