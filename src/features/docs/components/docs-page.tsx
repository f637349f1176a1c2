// /docs: the documentation hub — a table of contents beside every section a site owner needs.
import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { Box, Button, Container, Grid, Link, List, Text } from '@chakra-ui/react';
import { ChevronDownIcon } from 'lucide-react';
import { PageHero } from '../../../components/page-hero';
import { PageMeta } from '../../../components/page-meta';
import { PAGE_META } from '../../../config/seo';
import { DOC_SECTIONS } from '../toc';
import {
  Ajax,
  AllowedOrigin,
  Endpoint,
  GettingStarted,
  HtmlForm,
  Limits,
  Notifications,
  Spam,
  SpecialFields,
} from './form-backend-sections';
import { Captcha } from './captcha-docs';
import { Uploads } from './uploads-docs';
import {
  Analytics,
  ApiKeys,
  ApiReference,
  Autoresponder,
  Booking,
  Contact,
  Faq,
  Newsletter,
  Retention,
  Security,
  SelfHosting,
  Troubleshooting,
  Webhooks,
} from './more-sections';

export function DocsPage() {
  return (
    <Box>
      <PageMeta {...PAGE_META.docs} />
      <PageHero
        align="start"
        title="Documentation"
        lead="Everything you need to receive form submissions from any website with tinyback: the endpoint, copyable examples, the special fields, spam defence, limits and error codes."
      />
      <Container maxW="6xl" py={{ base: 8, md: 12 }}>
        <Grid
          templateColumns={{ base: 'minmax(0, 1fr)', lg: '15rem minmax(0, 1fr)' }}
          gap={{ base: 8, lg: 12 }}
        >
          <TableOfContents />
          <Box minW={0} maxW="3xl">
            <GettingStarted />
            <Endpoint />
            <HtmlForm />
            <Ajax />
            <SpecialFields />
            <AllowedOrigin />
            <Spam />
            <Captcha />
            <Uploads />
            <Limits />
            <Notifications />
            <ApiKeys />
            <Analytics />
            <Newsletter />
            <Booking />
            <Webhooks />
            <Autoresponder />
            <Retention />
            <ApiReference />
            <Troubleshooting />
            <Security />
            <SelfHosting />
            <Faq />
            <Contact />
          </Box>
        </Grid>
      </Container>
    </Box>
  );
}

/**
 * The sections' links. From the large breakpoint up it is a sticky list beside the text; below it,
 * where it would push the docs a screen down, it folds behind an "On this page" button (a
 * disclosure: aria-expanded, Escape closes it, following a link folds it again).
 */
function TableOfContents() {
  const [open, setOpen] = useState(false);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const listId = useId();

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key !== 'Escape' || !open) return;
    setOpen(false);
    toggleRef.current?.focus();
  };

  return (
    <Box
      as="nav"
      aria-labelledby="docs-toc-heading"
      onKeyDown={onKeyDown}
      position={{ lg: 'sticky' }}
      top={{ lg: '88px' }}
      alignSelf="start"
      maxH={{ lg: 'calc(100vh - 110px)' }}
      overflowY={{ lg: 'auto' }}
      borderWidth={{ base: '1px', lg: 0 }}
      borderRadius="lg"
      p={{ base: 1, lg: 0 }}
    >
      <Button
        ref={toggleRef}
        variant="ghost"
        w="full"
        justifyContent="space-between"
        display={{ base: 'flex', lg: 'none' }}
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((value) => !value)}
      >
        {/* The visible heading on phones; the nav's name in every layout. */}
        <Text as="span" id="docs-toc-heading" fontWeight="bold">
          On this page
        </Text>
        <Box
          as="span"
          aria-hidden="true"
          transition="transform 0.2s"
          transform={open ? 'rotate(180deg)' : undefined}
        >
          <ChevronDownIcon />
        </Box>
      </Button>
      <Text
        aria-hidden="true"
        display={{ base: 'none', lg: 'block' }}
        fontWeight="bold"
        mb={3}
        fontSize="sm"
        textTransform="uppercase"
        letterSpacing="wide"
        color="fg.muted"
      >
        On this page
      </Text>
      <List.Root
        id={listId}
        listStyleType="none"
        gap={1}
        display={{ base: open ? 'block' : 'none', lg: 'block' }}
        px={{ base: 3, lg: 0 }}
        pb={{ base: 3, lg: 0 }}
        columns={{ base: 1, sm: 2, lg: 1 }}
        css={{ columnGap: '1rem' }}
      >
        {DOC_SECTIONS.map((section) => (
          <List.Item key={section.id} breakInside="avoid">
            <Link
              href={`#${section.id}`}
              display="block"
              py={1}
              color="fg"
              _hover={{ color: 'teal.700' }}
              onClick={() => setOpen(false)}
            >
              {section.title}
              {'soon' in section && section.soon ? (
                <Text as="span" color="fg.muted" fontSize="xs">
                  {' '}
                  (soon)
                </Text>
              ) : null}
            </Link>
          </List.Item>
        ))}
      </List.Root>
    </Box>
  );
}
