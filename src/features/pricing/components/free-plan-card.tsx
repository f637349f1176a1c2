// Where every account starts: the Free plan's quotas, no card needed, and the way in. Above the
// paid plans, so the first thing the page says is what the home page promises.
import { Link as RouterLink } from 'react-router-dom';
import {
  Badge,
  Button,
  Card,
  Flex,
  Heading,
  Stack,
  Text,
  type CardRootProps,
} from '@chakra-ui/react';
import { CheckList } from '../../../components/check-list';
import { paths } from '../../../config/paths';
import { FREE_PLAN, projectsQuotaText, submissionsQuotaText } from '../../../config/plans';

export function FreePlanCard(props: CardRootProps) {
  return (
    <Card.Root as="section" aria-labelledby="plan-free" variant="outline" {...props}>
      <Card.Body>
        <Flex
          direction={{ base: 'column', md: 'row' }}
          gap={{ base: '5', md: '10' }}
          align={{ md: 'center' }}
        >
          <Stack gap="2" flex="1">
            <Flex align="center" gap="3" wrap="wrap">
              <Heading as="h2" id="plan-free" size="xl">
                {FREE_PLAN.title}
              </Heading>
              <Badge colorPalette="teal" variant="subtle" rounded="full" px="3">
                Every account starts here
              </Badge>
            </Flex>
            <Flex align="baseline" gap="1" data-testid="price-free">
              <Text as="span" fontSize="4xl" fontWeight="800" letterSpacing="-0.03em">
                €0
              </Text>
              <Text as="span" color="fg.muted">
                / month, no credit card required
              </Text>
            </Flex>
            <Text color="fg.muted">
              Sign up and your account is on Free at once, whichever plan you pick below; move up
              when your forms get busy.
            </Text>
          </Stack>
          <Stack gap="4" minW={{ md: '64' }}>
            <CheckList
              items={[
                projectsQuotaText(FREE_PLAN.quota),
                submissionsQuotaText(FREE_PLAN.quota),
                'The whole form backend',
              ]}
            />
            <Button asChild colorPalette="teal" size="lg">
              <RouterLink to={paths.register}>Get Started Free</RouterLink>
            </Button>
          </Stack>
        </Flex>
      </Card.Body>
    </Card.Root>
  );
}
