// Small typographic pieces shared by the docs sections: sub-headings, prose, inline code, lists,
// tables, notes.
import type { ReactNode } from 'react';
import { Alert, Box, Code as ChakraCode, Heading, List, Table, Text } from '@chakra-ui/react';
import { HorizontalScroll } from '../../../components/horizontal-scroll';

/** A heading inside a section (h3), reachable by its id when it has one. */
export function SubHeading({ id, children }: { id?: string; children: string }) {
  return (
    <Box mt={6}>
      <Heading as="h3" id={id} size="lg" mb={2} scrollMarginTop="88px">
        {children}
      </Heading>
    </Box>
  );
}

export function P({ children }: { children: ReactNode }) {
  return (
    <Text mb={4} lineHeight="tall">
      {children}
    </Text>
  );
}

/**
 * Inline code. A chip names one thing (a field, a header, an error code) and never breaks inside
 * a word: breaking `origin_not_allowed` mid-name makes it unreadable. A long chip may wrap only
 * at its spaces and after a slash (`GET /functions/v1/…`, a URL), so it never pushes the page
 * sideways on a phone either.
 */
export function C({ children }: { children: ReactNode }) {
  const text = plainText(children);
  return (
    <ChakraCode
      fontSize="0.9em"
      display="inline"
      whiteSpace="normal"
      wordBreak="normal"
      overflowWrap="normal"
      // The chip's padding and background continue on each line it wraps onto.
      css={{ boxDecorationBreak: 'clone', WebkitBoxDecorationBreak: 'clone' }}
    >
      {text === null ? <span style={{ whiteSpace: 'nowrap' }}>{children}</span> : breakable(text)}
    </ChakraCode>
  );
}

/** The text of children made only of strings (JSX splits `a{'{b}'}` into several), else null. */
function plainText(children: ReactNode): string | null {
  const parts = Array.isArray(children) ? children : [children];
  return parts.every((part) => typeof part === 'string') ? parts.join('') : null;
}

/** Unbreakable words, with a line-break opportunity after each slash (spaces break by themselves). */
function breakable(text: string): ReactNode[] {
  return text.split(/(\s+)/).map((word, i) =>
    i % 2 === 1 ? (
      word
    ) : (
      <span key={i} style={{ whiteSpace: 'nowrap' }}>
        {word
          .split(/(?<=\/)(?!\/)/)
          .flatMap((piece, j) => (j === 0 ? [piece] : [<wbr key={j} />, piece]))}
      </span>
    ),
  );
}

/**
 * Text written as data (error table rows, FAQ answers) with inline code marked `like this`:
 * the marked parts become code chips, so no backtick ever reaches the page.
 */
export function CodeText({ text }: { text: string }) {
  const parts = text.split(/`([^`]+)`/);
  return (
    <>
      {parts.map((part, i) =>
        // split() with one capture group alternates: even indexes are text, odd ones code.
        i % 2 === 1 ? <C key={i}>{part}</C> : part,
      )}
    </>
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
    // Narrow screens scroll the table sideways rather than squeezing prose to a word a line.
    <HorizontalScroll label={`${caption} table`} mb={4} borderWidth="1px" borderRadius="lg">
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
                // The last column is prose: it keeps a readable width, and the table scrolls.
                <Table.Cell
                  key={j}
                  verticalAlign="top"
                  minW={j === cells.length - 1 && j > 0 ? '14rem' : undefined}
                >
                  {typeof cell === 'string' ? <CodeText text={cell} /> : cell}
                </Table.Cell>
              ))}
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </HorizontalScroll>
  );
}
