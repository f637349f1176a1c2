// One breakdown's top ten as a table: the value (a button that filters every number by it), its
// visitors and its page views (or, for events, how often it happened). Countries are named.
import { Box, Button, Heading, Table, Text } from '@chakra-ui/react';
import type { EventRow, TopRow } from '../api/get-stats';
import { countryName, formatCount } from '../stats-format';
import { FILTER_LABELS, type FilterKey } from '../stats-filters';

export interface TopListProps {
  filterKey: FilterKey;
  title: string;
  rows: readonly (TopRow | EventRow)[];
  /** The value this list is filtered by, if it is. */
  active?: string;
  onFilter: (key: FilterKey, value: string) => void;
}

/** A value as the list shows it. */
export function displayValue(key: FilterKey, value: string): string {
  return key === 'country' ? countryName(value) : value;
}

export function TopList({ filterKey, title, rows, active, onFilter }: TopListProps) {
  const isEvents = filterKey === 'event';
  const top = Math.max(1, ...rows.map((row) => row.visitors));
  return (
    <Box as="section" borderWidth="1px" borderRadius="md" p="3" minW="0">
      <Heading as="h3" size="sm" mb="2">
        {title}
      </Heading>
      {rows.length === 0 ? (
        <Text fontSize="sm" color="fg.muted">
          Nothing in this range.
        </Text>
      ) : (
        <Table.Root size="sm" css={{ tableLayout: 'fixed' }}>
          <Table.Caption
            srOnly
          >{`${title}: top ${rows.length}. Choose a value to filter by it.`}</Table.Caption>
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>{FILTER_LABELS[filterKey]}</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="end" width="5.5rem">
                Visitors
              </Table.ColumnHeader>
              <Table.ColumnHeader textAlign="end" width="5.5rem">
                {isEvents ? 'Events' : 'Views'}
              </Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {rows.map((row) => {
              const shown = displayValue(filterKey, row.value);
              const count = 'events' in row ? row.events : row.pageviews;
              return (
                <Table.Row
                  key={row.value}
                  // A bar behind the row: its share of the list's top value.
                  css={{
                    background: `linear-gradient(to right, var(--chakra-colors-teal-subtle) ${(row.visitors / top) * 100}%, transparent 0)`,
                  }}
                >
                  <Table.Cell overflow="hidden">
                    <Button
                      variant="plain"
                      size="xs"
                      px="0"
                      maxW="full"
                      justifyContent="start"
                      title={row.value}
                      aria-pressed={active === row.value}
                      onClick={() => onFilter(filterKey, row.value)}
                    >
                      <Text as="span" truncate>
                        {shown}
                      </Text>
                    </Button>
                  </Table.Cell>
                  <Table.Cell textAlign="end">{formatCount(row.visitors)}</Table.Cell>
                  <Table.Cell textAlign="end">{formatCount(count)}</Table.Cell>
                </Table.Row>
              );
            })}
          </Table.Body>
        </Table.Root>
      )}
    </Box>
  );
}
