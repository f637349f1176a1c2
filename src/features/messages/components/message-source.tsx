// Where a message was written, when the site runs the analytics tracker: "Page /contact · From
// news.example" (or "Direct"), one small line; nothing for a message without it. The separator is
// hidden from screen readers, which read "Page /contact From news.example".
import { Text, type TextProps } from '@chakra-ui/react';
import { visibleText } from '../../../lib/visible-text';
import { messageSource } from '../message-fields';
import type { Message } from '../types';

export function MessageSource({
  message,
  ...props
}: { message: Pick<Message, 'source_page' | 'source_referrer'> } & TextProps) {
  const source = messageSource(message);
  if (!source) return null;
  return (
    <Text textStyle="xs" color="fg.muted" minW="0" overflowWrap="anywhere" {...props}>
      Page{' '}
      <Text as="span" fontFamily="mono">
        {visibleText(source.page)}
      </Text>
      <span aria-hidden="true"> ·</span> {source.referrer ? `From ${source.referrer}` : 'Direct'}
    </Text>
  );
}
