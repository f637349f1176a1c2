// The dashboard's 'What's new' list: recent changes to tinyback, newest first (static, from config).
import { Box, Heading, Stack, Text } from '@chakra-ui/react';
import { WHATS_NEW, type WhatsNewItem } from '../../../config/whats-new';

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });

export function WhatsNew({ items = WHATS_NEW }: { items?: readonly WhatsNewItem[] }) {
  return (
    <Box
      as="section"
      aria-labelledby="whats-new-heading"
      borderWidth="1px"
      rounded="xl"
      p="5"
      bg="bg.subtle"
    >
      <Heading as="h2" size="lg" id="whats-new-heading" mb="4">
        What&apos;s new
      </Heading>
      {items.length === 0 ? (
        <Text color="fg.muted">Nothing new right now.</Text>
      ) : (
        <Stack as="ul" gap="4" listStyleType="none" m="0" p="0">
          {items.map((item) => (
            <Box as="li" key={`${item.date}-${item.title}`}>
              <Text as="time" fontSize="xs" color="fg.muted" {...{ dateTime: item.date }}>
                {dateFormat.format(new Date(`${item.date}T00:00:00Z`))}
              </Text>
              <Text fontWeight="semibold">{item.title}</Text>
              <Text fontSize="sm" color="fg.muted">
                {item.description}
              </Text>
            </Box>
          ))}
        </Stack>
      )}
    </Box>
  );
}
