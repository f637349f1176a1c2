// A list of short points, each marked with a teal check (plan features, tool highlights).
import { List } from '@chakra-ui/react';
import { CheckIcon } from 'lucide-react';

export function CheckList({
  items,
  gap = '2',
  fontSize,
  align = 'center',
}: {
  items: readonly string[];
  gap?: '1.5' | '2' | '3';
  fontSize?: 'sm' | 'lg';
  /** 'start' keeps the check beside the first line of points that may wrap. */
  align?: 'center' | 'start';
}) {
  return (
    <List.Root gap={gap} variant="plain" fontSize={fontSize}>
      {items.map((item) => (
        <List.Item key={item} alignItems={align === 'start' ? 'flex-start' : 'center'}>
          <List.Indicator asChild color="teal.600" mt={align === 'start' ? '1' : undefined}>
            <CheckIcon aria-hidden />
          </List.Indicator>
          {item}
        </List.Item>
      ))}
    </List.Root>
  );
}
