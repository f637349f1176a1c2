// The shared frame of every page: skip link, fixed header, main outlet and footer.
import type { ReactNode } from 'react';
import { Suspense, useEffect } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { Box, Center, Flex, Link, Spinner } from '@chakra-ui/react';
import { Header, HEADER_HEIGHT } from './header';
import { Footer } from './footer';

/** The routed page, with a spinner while its chunk loads. */
export function PageOutlet() {
  return (
    <Suspense
      fallback={
        <Center minH="50vh" role="status" aria-label="Loading page">
          <Spinner size="lg" color="teal.600" />
        </Center>
      }
    >
      <Outlet />
    </Suspense>
  );
}

export function PageLayout({ newsletter }: { newsletter?: ReactNode }) {
  const { pathname } = useLocation();
  // A new page starts at its top, as with a full page load.
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);

  return (
    <Flex direction="column" minH="100dvh">
      <Link
        href="#main"
        position="absolute"
        left="2"
        top="2"
        transform="translateY(-200%)"
        zIndex="skipNav"
        bg="bg"
        px="4"
        py="2"
        rounded="md"
        shadow="md"
        _focus={{ transform: 'none' }}
      >
        Skip to content
      </Link>
      <Header />
      <Box as="main" id="main" tabIndex={-1} flex="1" pt={HEADER_HEIGHT} outline="none">
        {/* Pages load as separate chunks; header and footer stay while one arrives. */}
        <PageOutlet />
      </Box>
      <Footer newsletter={newsletter} />
    </Flex>
  );
}
