// Small typographic pieces shared by the docs sections: prose, inline code, lists, tables, notes.
import type { ReactNode } from 'react';
import { Alert, Box, Code as ChakraCode, List, Table, Text } from '@chakra-ui/react';

export function P({ children }: { children: ReactNode }) {
  return (
    <Text mb={4} lineHeight="tall">
      {children}
    </Text>
  );
}

export function C({ children }: { children: ReactNode }) {
  return (
    <ChakraCode fontSize="0.9em" wordBreak="break-word">
      {children}
    </ChakraCode>
  );
}

export function Bullets({ children, ordered }: { children: ReactNode; ordered?: boolean }) {
  return (
    <List.Root
      as={ordered ? 'ol' : 'ul'}
      ps={6}
      mb={4}
      gap={2}
      listStyleType={ordered ? 'decimal' : 'disc'}
    >
      {children}
    </List.Root>
  );
}

export const Item = List.Item;

export function Note({
  children,
  status = 'info',
}: {
  children: ReactNode;
  status?: 'info' | 'warning';
}) {
  return (
    <Alert.Root status={status} borderRadius="lg" mb={4}>
      <Alert.Indicator />
      <Alert.Description>{children}</Alert.Description>
    </Alert.Root>
  );
}

export function DataTable({
  caption,
  head,
  rows,
}: {
  caption: string;
  head: string[];
  rows: ReactNode[][];
}) {
  return (
    <Box overflowX="auto" mb={4} borderWidth="1px" borderRadius="lg">
      <Table.Root size="sm">
        <Table.Caption captionSide="top" textAlign="start" px={3} pt={3} color="fg.muted">
          {caption}
        </Table.Caption>
        <Table.Header>
          <Table.Row>
            {head.map((h) => (
              <Table.ColumnHeader key={h} scope="col">
                {h}
              </Table.ColumnHeader>
            ))}
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {rows.map((cells, i) => (
            <Table.Row key={i}>
              {cells.map((cell, j) => (
                // The first column names things (fields, codes); they must not break mid-name.
                <Table.Cell
                  key={j}
                  verticalAlign="top"
                  css={
                    j === 0
                      ? { '& code': { whiteSpace: 'nowrap', wordBreak: 'normal' } }
                      : undefined
                  }
                >
                  {cell}
                </Table.Cell>
              ))}
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </Box>
  );
}
