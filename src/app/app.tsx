// Minimal app shell; the public site and dashboard routes are added by their features.
import { BrowserRouter, Route, Routes } from 'react-router-dom';
import { Box, Heading, Text } from '@chakra-ui/react';
import { AppProvider } from './provider';

function Home() {
  return (
    <Box as="main" p={8}>
      <Heading as="h1">tinyback.tools</Heading>
      <Text>The open-source, self-hostable form backend.</Text>
    </Box>
  );
}

export function App() {
  return (
    <AppProvider>
      <BrowserRouter>
        <Routes>
          <Route path="*" element={<Home />} />
        </Routes>
      </BrowserRouter>
    </AppProvider>
  );
}
