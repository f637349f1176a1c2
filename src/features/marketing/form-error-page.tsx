// The page a plain HTML form post lands on when the form endpoint refuses it (its 303 to
// `${SITE_URL}/form-error?code=…`), the counterpart of /thanks: it says in plain words what
// happened and what to do, and leads back to the form — first through the browser's history, which
// keeps what the visitor typed, else to the site the form was on (the referrer's origin, http(s)
// only). It shows only what its address may carry and the endpoint's own words for each code:
// field names of a safe shape, a wait in seconds (supabase/functions/forms/refusal-page.ts), never
// a sentence from the link, so a crafted link cannot make it say anything else.
import { Box, Button, Code, Flex, Heading, Icon, Stack, Text, Wrap } from '@chakra-ui/react';
import { ArrowLeftIcon, CircleAlertIcon } from 'lucide-react';
import { useSearchParams } from 'react-router-dom';
import { readRefusalParams } from '../../../supabase/functions/forms/refusal-page';
import { PageMeta } from '../../components/page-meta';
import { refusalText, waitText, type RefusalText } from './form-error-texts';
import { referrerOrigin } from './thanks-page';

/** What the visitor can do now, in one sentence. */
function remedyText(text: RefusalText, retry: number | null): string | null {
  switch (text.remedy) {
    case 'fix':
      return text.nothingTyped
        ? `Go back to the form. ${text.fix ?? 'Send it again.'}`
        : `Go back to the form: your browser keeps what you typed. ${text.fix ?? 'Send it again.'}`;
    case 'wait':
      return `Wait ${retry ? waitText(retry) : 'a moment'}, then go back to the form and send it again: your browser keeps what you typed.`;
    case 'owner':
      return null;
  }
}

function WaysBack() {
  const origin = referrerOrigin(document.referrer);
  // Our own origin is no way back: it would lead into tinyback instead of the visitor's site.
  const site = origin !== null && origin !== window.location.origin ? origin : null;
  const canGoBack = window.history.length > 1;
  if (!canGoBack && !site) return <Text color="fg.muted">You can close this page now.</Text>;
  return (
    <Stack direction={{ base: 'column', sm: 'row' }} gap="3" justify="center" align="center">
      {canGoBack && (
        <Button colorPalette="teal" size="lg" onClick={() => window.history.back()}>
          <ArrowLeftIcon aria-hidden /> Go back to the form
        </Button>
      )}
      {site && (
        <Button asChild variant={canGoBack ? 'outline' : 'solid'} colorPalette="teal" size="lg">
          <a href={site}>Back to {new URL(site).host}</a>
        </Button>
      )}
    </Stack>
  );
}

export function FormErrorPage() {
  const [params] = useSearchParams();
  const refusal = readRefusalParams(params);
  const text = refusalText(refusal.code);
  const remedy = remedyText(text, refusal.retry);
  const fields = refusal.code === 'invalid_fields' ? refusal.fields : [];

  return (
    <Box px="4" py={{ base: '12', md: '20' }}>
      <PageMeta title="Message not sent" description="The form could not be sent." noindex />
      <Stack
        align="center"
        textAlign="center"
        gap="5"
        maxW="lg"
        mx="auto"
        bg="bg"
        borderWidth="1px"
        rounded="2xl"
        shadow="sm"
        px={{ base: '6', md: '10' }}
        py={{ base: '10', md: '12' }}
      >
        <Flex
          w="16"
          h="16"
          rounded="full"
          bg="orange.50"
          color="orange.700"
          align="center"
          justify="center"
        >
          <Icon as={CircleAlertIcon} boxSize="8" aria-hidden />
        </Flex>
        <Heading as="h1" size={{ base: '2xl', md: '3xl' }}>
          {text.title}
        </Heading>
        <Text color="fg.muted">{text.body}</Text>
        {fields.length > 0 && (
          <Stack gap="2" align="center" data-testid="refused-fields">
            <Text fontWeight="medium">
              {fields.length === 1 ? 'Check this field:' : 'Check these fields:'}
            </Text>
            <Wrap justify="center" gap="2" as="ul" listStyleType="none">
              {fields.map((name) => (
                <li key={name}>
                  <Code size="md" wordBreak="break-all">
                    {name}
                  </Code>
                </li>
              ))}
              {refusal.moreFields && (
                <Text as="li" color="fg.muted">
                  and others
                </Text>
              )}
            </Wrap>
          </Stack>
        )}
        {remedy && <Text fontWeight="medium">{remedy}</Text>}
        <WaysBack />
      </Stack>
    </Box>
  );
}
