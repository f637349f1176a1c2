// Renders trusted-shape but untrusted-content markdown (blog bodies) as Chakra-styled elements.
// GitHub-flavoured markdown is on; single newlines stay soft (no remark-breaks); raw HTML in the
// source is never turned into elements (no rehype-raw), and unsafe link schemes are dropped by
// react-markdown's default URL transform. Code blocks carry a copy button; code blocks and tables
// scroll sideways (with a fade cue, focusable for the keyboard) instead of squeezing their content.
import type { ComponentProps, ReactNode } from 'react';
import ReactMarkdown, { type Components, type ExtraProps } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { Link as RouterLink } from 'react-router-dom';
import {
  Blockquote,
  Box,
  Code,
  Heading,
  Image,
  Link,
  List,
  Separator,
  Table,
  Text,
} from '@chakra-ui/react';
import { CodeBlock } from './code-block';
import { HorizontalScroll } from './horizontal-scroll';

class MarkdownInputError extends Error {
  constructor() {
    super('Markdown content must be a string');
    this.name = 'MarkdownInputError';
  }
}

/** Same-site paths navigate inside the app; everything else is an external link. */
function isInternalHref(href: string): boolean {
  return href.startsWith('/') && !href.startsWith('//');
}

function MarkdownLink({ href, children }: ComponentProps<'a'>) {
  if (!href) return <>{children}</>;
  if (href.startsWith('#')) {
    return (
      <Link href={href} color="teal.700" textDecoration="underline">
        {children}
      </Link>
    );
  }
  if (isInternalHref(href)) {
    return (
      <Link asChild color="teal.700" textDecoration="underline">
        <RouterLink to={href}>{children}</RouterLink>
      </Link>
    );
  }
  // Content links leave the site: no opener access and no ranking credit for what authors paste.
  return (
    <Link
      href={href}
      color="teal.700"
      textDecoration="underline"
      target="_blank"
      rel="noopener noreferrer nofollow"
    >
      {children}
    </Link>
  );
}

type HastElement = NonNullable<ExtraProps['node']>;

/** The plain text of a syntax-tree node: what a code block's copy button puts on the clipboard. */
function textOf(node: unknown): string {
  const { value, children } = (node ?? {}) as { value?: unknown; children?: unknown };
  if (typeof value === 'string') return value;
  return Array.isArray(children) ? children.map(textOf).join('') : '';
}

// Fenced code says its language as `language-xyz` on the inner <code>.
const LANGUAGE_NAMES: Record<string, string> = {
  bash: 'Shell',
  sh: 'Shell',
  shell: 'Shell',
  html: 'HTML',
  css: 'CSS',
  js: 'JavaScript',
  javascript: 'JavaScript',
  jsx: 'JSX',
  ts: 'TypeScript',
  typescript: 'TypeScript',
  tsx: 'TSX',
  json: 'JSON',
  sql: 'SQL',
  toml: 'TOML',
  yaml: 'YAML',
  yml: 'YAML',
};

function languageOf(pre: HastElement | undefined): string | null {
  const code = pre?.children[0];
  const classes = code?.type === 'element' ? code.properties.className : undefined;
  const match = Array.isArray(classes)
    ? classes.map(String).find((name) => name.startsWith('language-'))
    : undefined;
  if (!match) return null;
  const language = match.slice('language-'.length).toLowerCase();
  return LANGUAGE_NAMES[language] ?? language.toUpperCase();
}

/** A fenced code block: a bar with its language and a copy button, then the code. */
function FencedCode({ node, children }: { node?: HastElement; children?: ReactNode }) {
  const language = languageOf(node);
  // The source's own final newline would be copied as a trailing empty line.
  const text = textOf(node).replace(/\n$/, '');
  return (
    <CodeBlock label={language ? `${language} code` : 'Code'} text={text}>
      {children}
    </CodeBlock>
  );
}

// Markdown headings are shifted one level down: the page around the body owns the only h1.
const components: Components = {
  h1: ({ children }) => (
    <Heading as="h2" size="2xl" mt={8} mb={3}>
      {children}
    </Heading>
  ),
  h2: ({ children }) => (
    <Heading as="h3" size="xl" mt={7} mb={3}>
      {children}
    </Heading>
  ),
  h3: ({ children }) => (
    <Heading as="h4" size="lg" mt={6} mb={2}>
      {children}
    </Heading>
  ),
  h4: ({ children }) => (
    <Heading as="h5" size="md" mt={5} mb={2}>
      {children}
    </Heading>
  ),
  h5: ({ children }) => (
    <Heading as="h6" size="sm" mt={4} mb={2}>
      {children}
    </Heading>
  ),
  h6: ({ children }) => (
    <Heading as="h6" size="xs" mt={4} mb={2}>
      {children}
    </Heading>
  ),
  p: ({ children }) => (
    <Text my={4} lineHeight="tall">
      {children}
    </Text>
  ),
  a: MarkdownLink,
  ul: ({ children, className }) => (
    <List.Root
      as="ul"
      ps={6}
      my={4}
      gap={1}
      listStyleType={className?.includes('contains-task-list') ? 'none' : 'disc'}
    >
      {children}
    </List.Root>
  ),
  ol: ({ children, start }) => (
    <List.Root as="ol" ps={6} my={4} gap={1} listStyleType="decimal" {...(start ? { start } : {})}>
      {children}
    </List.Root>
  ),
  li: ({ children, className }) => <List.Item className={className}>{children}</List.Item>,
  input: ({ type, checked }) =>
    type === 'checkbox' ? (
      // GFM task-list markers are read-only state, not controls.
      <input
        type="checkbox"
        checked={Boolean(checked)}
        disabled
        readOnly
        aria-label={checked ? 'Done' : 'Not done'}
        style={{ marginInlineEnd: '0.5em' }}
      />
    ) : null,
  blockquote: ({ children }) => (
    <Blockquote.Root my={4}>
      <Blockquote.Content>{children}</Blockquote.Content>
    </Blockquote.Root>
  ),
  hr: () => <Separator my={8} />,
  img: ({ src, alt }) =>
    typeof src === 'string' ? (
      <Image src={src} alt={alt ?? ''} loading="lazy" borderRadius="md" my={4} maxW="100%" />
    ) : null,
  pre: ({ node, children }) => <FencedCode node={node}>{children}</FencedCode>,
  code: ({ children, className }) => (
    <Code className={className} fontSize="0.9em">
      {children}
    </Code>
  ),
  table: ({ children }) => (
    // Cells keep a readable width and the table scrolls, rather than one word a line on a phone.
    <HorizontalScroll label="Table" my={4} borderWidth="1px" borderRadius="md">
      <Table.Root
        size="sm"
        css={{
          '& th, & td': { minWidth: '8rem' },
          '& th:first-of-type, & td:first-of-type': { minWidth: '6rem' },
          '& code': { whiteSpace: 'nowrap' },
        }}
      >
        {children}
      </Table.Root>
    </HorizontalScroll>
  ),
  thead: ({ children }) => <Table.Header>{children}</Table.Header>,
  tbody: ({ children }) => <Table.Body>{children}</Table.Body>,
  tr: ({ children }) => <Table.Row>{children}</Table.Row>,
  th: ({ children, style }) => <Table.ColumnHeader style={style}>{children}</Table.ColumnHeader>,
  td: ({ children, style }) => <Table.Cell style={style}>{children}</Table.Cell>,
};

export interface MarkdownProps {
  /** The markdown source. Anything but a string is a programming or data error and throws. */
  content: unknown;
}

export function Markdown({ content }: MarkdownProps) {
  if (typeof content !== 'string') throw new MarkdownInputError();
  return (
    <Box className="markdown-body">
      <ReactMarkdown remarkPlugins={[remarkGfm]} components={components} skipHtml>
        {content}
      </ReactMarkdown>
    </Box>
  );
}
