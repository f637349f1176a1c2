// A list's signup form for the owner's site, as plain HTML or sent with fetch, with copy buttons,
// and below it the list's CAPTCHA, which the code carries once it is on.
import { useState } from 'react';
import { Box, Stack, Tabs, Text, Textarea } from '@chakra-ui/react';
import { CopyButton } from '../../../components/copy-button';
import { env } from '../../../config/env';
import { signupCode, type SignupVariant } from '../embed-code';
import type { NewsletterList } from '../newsletter-types';
import { ListCaptcha } from './list-captcha';

const VARIANTS: { value: SignupVariant; label: string; hint: string }[] = [
  {
    value: 'html',
    label: 'HTML',
    hint: 'A plain form: works without JavaScript, then shows a page asking to check the inbox.',
  },
  {
    value: 'fetch',
    label: 'JavaScript (fetch)',
    hint: 'Sends in the background and says what happened under the button; visitors stay on the page.',
  },
];

export function SignupCode({ list }: { list: NewsletterList }) {
  const [variant, setVariant] = useState<SignupVariant>('html');
  return (
    <Stack gap="3">
      <Text color="fg.muted" fontSize="sm">
        Paste this on {list.allowed_origin}: signups from other sites are refused. Everyone who
        signs up gets an e-mail to confirm their address first.
      </Text>
      <Tabs.Root
        value={variant}
        onValueChange={(details) => setVariant(details.value as SignupVariant)}
        variant="enclosed"
        size="sm"
        lazyMount
        unmountOnExit
      >
        <Tabs.List>
          {VARIANTS.map((v) => (
            <Tabs.Trigger key={v.value} value={v.value}>
              {v.label}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        {VARIANTS.map((v) => {
          const code = signupCode(v.value, env.supabaseUrl, list);
          return (
            <Tabs.Content key={v.value} value={v.value} pt="3">
              <Stack gap="2">
                <Text fontSize="sm" color="fg.muted">
                  {v.hint}
                </Text>
                <Textarea
                  aria-label={`Signup form code (${v.label})`}
                  value={code}
                  readOnly
                  spellCheck={false}
                  wrap="off"
                  rows={12}
                  fontFamily="mono"
                  fontSize="xs"
                  lineHeight="1.5"
                  resize="vertical"
                  overflow="auto"
                  bg="bg.subtle"
                  onFocus={(event) => event.currentTarget.select()}
                />
                <CopyButton
                  text={code}
                  label="Copy code"
                  accessibleLabel={`${v.label} signup form`}
                  colorPalette="teal"
                  alignSelf="flex-start"
                />
              </Stack>
            </Tabs.Content>
          );
        })}
      </Tabs.Root>
      <Box borderTopWidth="1px" pt="4" mt="2">
        <ListCaptcha key={list.id} list={list} />
      </Box>
    </Stack>
  );
}
