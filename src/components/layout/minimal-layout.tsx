// The frame of pages that our customers' visitors see (the thank-you page after a form post): no
// tinyback navigation, newsletter or footer, only the page, centred.
import { Flex } from '@chakra-ui/react';
import { PageOutlet } from './page-layout';

export function MinimalLayout() {
  return (
    <Flex as="main" id="main" direction="column" justify="center" minH="100dvh" bg="bg.subtle">
      <PageOutlet />
    </Flex>
  );
}
