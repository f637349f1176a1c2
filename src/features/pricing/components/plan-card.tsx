// One plan of the pricing page: price for the chosen cycle, its quotas and features, and a 'Get
// Started' link that carries the plan and cycle to the register form.
import { Link as RouterLink } from 'react-router-dom';
import { Badge, Button, Card, Flex, Heading, Stack, Text } from '@chakra-ui/react';
import { CheckList } from '../../../components/check-list';
import {
  planPoints,
  planPrice,
  planSignupPath,
  type BillingCycle,
  type Plan,
} from '../../../config/plans';

export function PlanCard({ plan, cycle }: { plan: Plan; cycle: BillingCycle }) {
  const { amount: price, unit } = planPrice(plan, cycle);
  return (
    <Card.Root
      as="article"
      aria-labelledby={`plan-${plan.id}`}
      variant={plan.popular ? 'elevated' : 'outline'}
      borderWidth={plan.popular ? '2px' : '1px'}
      borderColor={plan.popular ? 'teal.500' : 'border'}
      position="relative"
      h="full"
    >
      <Card.Body gap="5">
        <Flex justify="space-between" align="center" gap="2">
          <Heading as="h2" id={`plan-${plan.id}`} size="xl">
            {plan.title}
          </Heading>
          {plan.popular && (
            <Badge colorPalette="teal" variant="solid" rounded="full" px="3">
              Most Popular
            </Badge>
          )}
        </Flex>
        <Text color="fg.muted">{plan.description}</Text>
        <Flex align="baseline" gap="1" data-testid={`price-${plan.id}`}>
          <Text as="span" fontSize="5xl" fontWeight="800" letterSpacing="-0.03em">
            €{price}
          </Text>
          <Text as="span" color="fg.muted">
            / {unit}
          </Text>
        </Flex>
        <CheckList items={planPoints(plan)} />
      </Card.Body>
      <Card.Footer>
        <Stack w="full">
          <Button
            asChild
            colorPalette="teal"
            variant={plan.popular ? 'solid' : 'outline'}
            size="lg"
            w="full"
          >
            <RouterLink
              to={planSignupPath(plan.id, cycle)}
              aria-label={`Get Started with ${plan.title}`}
            >
              Get Started
            </RouterLink>
          </Button>
        </Stack>
      </Card.Footer>
    </Card.Root>
  );
}
