// What shows when part of the app fails, in full: the error panel of a page (or of the whole app),
// and each toast in words when the toasts' renderer could not be loaded; with them travels the
// recovery of failed chunks. Not part of the first page load: the app fetches this chunk when the
// browser is idle after start-up (src/app/app.tsx), so it is at hand when the network no longer
// is, and error-boundary.tsx shows a plain stand-in should it not be.
import { useEffect, useId, useRef, useState, useSyncExternalStore } from 'react';
import { Box, Button, Heading, HStack, Stack, Text } from '@chakra-ui/react';
import { isChunkLoadError } from '../lib/chunk-recovery';
import { lastToast, subscribeToToasts, type ToastWords } from './toaster-signal';

/**
 * src/lib/chunk-load.ts reaches the recovery through this module (a dynamic import): one chunk for
 * all that answers a failure.
 * @public
 */
export { recover } from '../lib/chunk-recovery';

export interface ErrorPanelProps {
  error: unknown;
  /** 'Try again': renders the failed part again. */
  reset: () => void;
}

/**
 * The way home from `pathname`: the dashboard from a signed-in page, else the home page. A full
 * page load, which also starts a redeployed site afresh.
 */
export function homeFor(pathname: string): { href: string; label: string } {
  return /^\/(dashboard|settings)(\/|$)/.test(pathname)
    ? { href: '/dashboard', label: 'Back to the dashboard' }
    : { href: '/', label: 'Go to the home page' };
}

export function errorTexts(error: unknown, online = navigator.onLine !== false) {
  if (!isChunkLoadError(error)) {
    return {
      title: 'Something went wrong on this page',
      text: 'An unexpected error stopped this page. Try again or reload the page; if it keeps happening, start again from the home page.',
    };
  }
  return {
    title: 'This page could not be loaded',
    text: online
      ? 'Part of the site did not arrive: the connection may have dropped, or a new version of the site was just published. Try again, or reload the page.'
      : 'You seem to be offline. Check your connection, then try again.',
  };
}

/**
 * What happened in plain words and three ways out: try again, reload the page, go home. The
 * heading takes the focus when the panel appears, so a keyboard or screen-reader user lands on the
 * message rather than on a control that vanished with the page.
 */
export function ErrorPanel({ error, reset }: ErrorPanelProps) {
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const { title, text } = errorTexts(error);
  const home = homeFor(window.location.pathname);
  return (
    <Stack
      as="section"
      aria-labelledby={headingId}
      gap="4"
      maxW="xl"
      mx="auto"
      px="4"
      py={{ base: '10', md: '16' }}
      textAlign="center"
      align="center"
      data-error-panel=""
    >
      <Heading as="h1" size="xl" id={headingId} ref={heading} tabIndex={-1} outline="none">
        {title}
      </Heading>
      <Text color="fg.muted">{text}</Text>
      <HStack gap="3" wrap="wrap" justify="center">
        <Button colorPalette="teal" onClick={reset}>
          Try again
        </Button>
        <Button variant="outline" onClick={() => window.location.reload()}>
          Reload page
        </Button>
        <Button asChild variant="ghost">
          <a href={home.href}>{home.label}</a>
        </Button>
      </HStack>
    </Stack>
  );
}

/**
 * Each toast in words, in a polite status region, for as long as the toast would have shown:
 * what shows when the toasts' renderer could not be loaded.
 */
export function ToastFallback() {
  const toast = useSyncExternalStore(subscribeToToasts, lastToast, () => null);
  const [expired, setExpired] = useState<ToastWords | null>(null);
  useEffect(() => {
    if (!toast) return;
    const timer = setTimeout(() => setExpired(toast), toast.duration);
    return () => clearTimeout(timer);
  }, [toast]);
  const shown = toast && toast !== expired ? toast : null;
  return (
    <Box
      role="status"
      position="fixed"
      bottom="4"
      insetEnd="4"
      insetStart={{ base: '4', md: 'auto' }}
      maxW={{ md: 'sm' }}
      zIndex="toast"
      data-toast-fallback=""
      {...(shown && {
        bg: 'bg.panel',
        borderWidth: '1px',
        borderInlineStartWidth: '4px',
        borderInlineStartColor: shown.type === 'error' ? 'red.500' : 'teal.500',
        rounded: 'md',
        shadow: 'lg',
        px: '4',
        py: '3',
      })}
    >
      {shown && (
        <>
          <Text fontWeight="semibold">{shown.title}</Text>
          {shown.description && <Text fontSize="sm">{shown.description}</Text>}
        </>
      )}
    </Box>
  );
}
