// The brand wordmark: `tinyback` + `.tools`, linking home.
import { Link, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router-dom';
import { paths } from '../../config/paths';
import { site } from '../../config/site';

export function Wordmark({
  size = 'xl',
  tone = 'light',
}: {
  size?: 'lg' | 'xl' | '2xl';
  tone?: 'light' | 'dark';
}) {
  return (
    <Link
      asChild
      gap="0"
      fontWeight="800"
      fontSize={size}
      letterSpacing="-0.03em"
      color={tone === 'dark' ? 'white' : 'fg'}
      _hover={{ textDecoration: 'none' }}
    >
      <RouterLink to={paths.home} aria-label={`${site.name} home`}>
        {site.wordmark.base}
        <Text as="span" color={tone === 'dark' ? 'teal.300' : 'teal.700'}>
          {site.wordmark.suffix}
        </Text>
      </RouterLink>
    </Link>
  );
}
