// The dashboard's recent forms: the five newest, each with its message counts and a link to its
// messages. Shown only when the owner has forms (spec §2).
import { Link as RouterLink } from 'react-router-dom';
import {
  Alert,
  Badge,
  Box,
  Button,
  Flex,
  HStack,
  Heading,
  Link,
  Skeleton,
  Stack,
  Text,
} from '@chakra-ui/react';
import { paths } from '../../../config/paths';
import { useForms } from '../api/get-forms';
import { NO_MESSAGES, useFormCounts } from '../api/get-form-counts';
import { visibleText } from '../../../lib/visible-text';
import { messageCount } from '../form-texts';
import { formMessagesPath } from '../messages-path';

const RECENT_FORMS_LIMIT = 5;

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });

export function RecentForms() {
  const forms = useForms();
  const counts = useFormCounts();

  if (forms.isPending) {
    return (
      <Box role="status" aria-label="Loading recent forms">
        <Stack gap="3" aria-hidden="true">
          <Skeleton h="6" w="40" />
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} h="14" borderRadius="lg" />
          ))}
        </Stack>
      </Box>
    );
  }
  if (forms.isError) {
    return (
      <Alert.Root status="error" alignItems="center">
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Title>Your recent forms could not be loaded.</Alert.Title>
        </Alert.Content>
        <Button size="sm" variant="outline" onClick={() => void forms.refetch()}>
          Retry
        </Button>
      </Alert.Root>
    );
  }
  const recent = forms.data.slice(0, RECENT_FORMS_LIMIT);
  if (recent.length === 0) return null;

  return (
    <Box as="section" aria-labelledby="recent-forms-heading">
      <Flex justify="space-between" align="baseline" gap="3" mb="3">
        <Heading as="h2" size="lg" id="recent-forms-heading">
          Recent forms
        </Heading>
        <Link asChild color="teal.700" fontWeight="medium">
          <RouterLink to={paths.dashboardForms}>View all</RouterLink>
        </Link>
      </Flex>
      <Stack as="ul" gap="2" listStyleType="none" m="0" p="0">
        {recent.map((form) => {
          const c = counts.data ? (counts.data[form.id] ?? NO_MESSAGES) : undefined;
          return (
            <Flex
              as="li"
              key={form.id}
              borderWidth="1px"
              borderRadius="lg"
              px="4"
              py="3"
              gap="3"
              justify="space-between"
              align={{ base: 'flex-start', sm: 'center' }}
              direction={{ base: 'column', sm: 'row' }}
            >
              <Box minW="0">
                <Link asChild fontWeight="semibold" color="teal.700">
                  <RouterLink to={formMessagesPath(form.id)}>{visibleText(form.name)}</RouterLink>
                </Link>
                <Text fontSize="sm" color="fg.muted" wordBreak="break-all">
                  {form.target_email} · created {dateFormat.format(new Date(form.created_at))}
                </Text>
              </Box>
              {c ? (
                <HStack gap="2" flexShrink={0}>
                  <Badge variant="subtle">{messageCount(c.total)}</Badge>
                  <Badge
                    colorPalette={c.unread ? 'teal' : 'gray'}
                    variant={c.unread ? 'solid' : 'subtle'}
                  >
                    {c.unread} unread
                  </Badge>
                </HStack>
              ) : counts.isError ? null : (
                <Skeleton h="5" w="28" />
              )}
            </Flex>
          );
        })}
      </Stack>
    </Box>
  );
}
