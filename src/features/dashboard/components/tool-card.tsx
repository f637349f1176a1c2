// One tool on the dashboard: 'Open Tool →' when it is active, 'Coming soon' otherwise.
import { useId, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { Badge, Card, Flex, Heading, Link, Text } from '@chakra-ui/react';
import { IconTile } from '../../../components/icon-tile';
import type { DashboardTool } from '../dashboard-tools';

export function ToolCard({
  tool,
  detail,
}: {
  tool: DashboardTool;
  /** A live figure under the description (the upcoming bookings); nothing when absent. */
  detail?: ReactNode;
}) {
  const headingId = useId();
  const active = tool.status === 'active';
  return (
    <Card.Root
      as="li"
      variant="outline"
      size="sm"
      h="full"
      borderColor={active ? 'teal.muted' : undefined}
      bg={active ? 'bg' : 'bg.subtle'}
    >
      <Card.Body gap="3">
        <Flex justify="space-between" align="flex-start" gap="3">
          <IconTile icon={tool.icon} />
          {!active && (
            <Badge variant="outline" colorPalette="gray">
              Coming soon
            </Badge>
          )}
        </Flex>
        <Heading as="h3" size="md" id={headingId}>
          {tool.name}
        </Heading>
        <Text fontSize="sm" color="fg.muted" flex="1">
          {tool.description}
        </Text>
        {detail}
        {active && (
          <Link asChild color="teal.700" fontWeight="semibold" alignSelf="flex-start">
            {/* The link's own text is the spec's; the card's heading tells which tool it opens. */}
            <RouterLink to={tool.route} aria-describedby={headingId}>
              Open Tool →
            </RouterLink>
          </Link>
        )}
      </Card.Body>
    </Card.Root>
  );
}
