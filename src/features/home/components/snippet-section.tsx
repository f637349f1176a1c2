// 'Copy. Paste. Deploy.': the ready-to-paste HTML form for our endpoint, with a copy button.
import { Box, Code, Flex, Icon, List, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { CircleCheckIcon } from 'lucide-react';
import { Section } from '../../../components/section';
import { CopyButton } from '../../../components/copy-button';
import { env } from '../../../config/env';
import { buildFormSnippet, EXAMPLE_FORM_ID } from '../snippet';

const steps = [
  'Create a form in your dashboard and copy its id.',
  'Paste the snippet into any page and replace YOUR-FORM-ID.',
  'Deploy. Submissions arrive by e-mail and in your dashboard.',
];

export function SnippetSection() {
  const snippet = buildFormSnippet({ supabaseUrl: env.supabaseUrl, formId: EXAMPLE_FORM_ID });
  return (
    <Section
      id="copy-paste-deploy"
      eyebrow="How it works"
      title="Copy. Paste. Deploy."
      intro="A plain HTML form is all it takes. No JavaScript, no SDK, no build step."
    >
      <SimpleGrid columns={{ base: 1, lg: 5 }} gap="8" alignItems="center">
        <Stack gap="5" gridColumn={{ lg: 'span 2' }}>
          <List.Root as="ol" gap="4" listStyle="none">
            {steps.map((step, index) => (
              <List.Item key={step} display="flex" gap="3" alignItems="flex-start">
                <Flex
                  flexShrink={0}
                  w="8"
                  h="8"
                  rounded="full"
                  bg="teal.600"
                  color="white"
                  align="center"
                  justify="center"
                  fontWeight="bold"
                  aria-hidden
                >
                  {index + 1}
                </Flex>
                <Text pt="1">{step}</Text>
              </List.Item>
            ))}
          </List.Root>
          <Text color="fg.muted" fontSize="sm">
            <Icon as={CircleCheckIcon} aria-hidden verticalAlign="-0.15em" me="1.5" />
            Spam trap included: the hidden <Code>_gotcha</Code> field.
          </Text>
        </Stack>
        <Box
          gridColumn={{ lg: 'span 3' }}
          rounded="xl"
          bg="gray.950"
          color="gray.100"
          shadow="xl"
          overflow="hidden"
        >
          <Flex
            justify="space-between"
            align="center"
            px="4"
            py="2"
            bg="gray.900"
            borderBottomWidth="1px"
            borderColor="gray.800"
          >
            <Text fontSize="sm" color="gray.300" fontFamily="mono">
              contact.html
            </Text>
            <CopyButton
              text={snippet}
              accessibleLabel="the HTML form snippet"
              variant="solid"
              colorPalette="teal"
            />
          </Flex>
          <Box
            as="pre"
            p="4"
            overflowX="auto"
            fontSize={{ base: 'xs', md: 'sm' }}
            lineHeight="1.7"
            fontFamily="mono"
            tabIndex={0}
            aria-label="HTML form snippet"
          >
            <code>{snippet}</code>
          </Box>
        </Box>
      </SimpleGrid>
    </Section>
  );
}
