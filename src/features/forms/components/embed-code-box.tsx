// The embed code of one form in a read-only, scrollable code box, as plain HTML or with a fetch
// script, and the 'Copy Embed Code' button.
import { useState } from 'react';
import { Stack, Tabs, Text, Textarea } from '@chakra-ui/react';
import { CopyButton } from '../../../components/copy-button';
import { env } from '../../../config/env';
import { embedCode, type EmbedForm, type EmbedVariant } from '../embed-code';

const VARIANTS: { value: EmbedVariant; label: string; hint: string }[] = [
  {
    value: 'html',
    label: 'HTML',
    hint: 'A plain form: works without JavaScript, then shows a thank-you page.',
  },
  {
    value: 'fetch',
    label: 'JavaScript (fetch)',
    hint: 'Sends in the background and shows the result under the button; visitors stay on the page.',
  },
];

export function EmbedCodeBox({ form }: { form: EmbedForm }) {
  const [variant, setVariant] = useState<EmbedVariant>('html');
  const code = embedCode(variant, { supabaseUrl: env.supabaseUrl, form });

  return (
    <Stack gap="3">
      <Text fontWeight="semibold">Embed this form:</Text>
      <Tabs.Root
        value={variant}
        onValueChange={(details) => setVariant(details.value as EmbedVariant)}
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
        {VARIANTS.map((v) => (
          <Tabs.Content key={v.value} value={v.value} pt="3">
            <Text fontSize="sm" color="fg.muted" mb="2">
              {v.hint}
            </Text>
            <Textarea
              aria-label="Embed code"
              value={code}
              readOnly
              spellCheck={false}
              wrap="off"
              rows={14}
              fontFamily="mono"
              fontSize="xs"
              lineHeight="1.5"
              resize="vertical"
              overflow="auto"
              bg="bg.subtle"
              // Selecting everything on focus makes a manual copy one keystroke.
              onFocus={(event) => event.currentTarget.select()}
            />
          </Tabs.Content>
        ))}
      </Tabs.Root>
      <CopyButton text={code} label="Copy Embed Code" colorPalette="teal" alignSelf="flex-start" />
    </Stack>
  );
}
