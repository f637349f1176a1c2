// Settings' "Plan and usage": the account's plan, its projects and this month's submissions
// against the plan's quotas (with when the count starts again), the plan chosen when
// registering, and how upgrading works today (by hand, on request: no payment in the app yet).
import { Link as RouterLink } from 'react-router-dom';
import { Badge, Box, Button, Flex, Heading, Link, Skeleton, Stack, Text } from '@chakra-ui/react';
import { paths } from '../../../config/paths';
import {
  findPlan,
  parseBilling,
  planPrice,
  projectsQuotaText,
  submissionsQuotaText,
  PLANS,
} from '../../../config/plans';
import { usePlanUsage } from '../api/get-plan-usage';
import { formatResetDate, type PlanUsage } from '../plan-usage';
import { UsageBar } from './usage-bar';

/** "Pro · €190/year (annual billing)", or the id when the site does not know the plan. */
function chosenPlanText(usage: Pick<PlanUsage, 'chosenPlan' | 'chosenBilling'>): string {
  const plan = findPlan(usage.chosenPlan);
  if (!plan) return usage.chosenPlan ?? 'None';
  const cycle = parseBilling(usage.chosenBilling);
  const price = planPrice(plan, cycle);
  return `${plan.title} · €${price.amount}/${price.unit} (${cycle === 'annually' ? 'annual' : 'monthly'} billing)`;
}

function upgradeMailto(contact: string, wanted: string | null): string {
  const subject = `Plan change${wanted ? `: ${wanted}` : ''}`;
  return `mailto:${contact}?subject=${encodeURIComponent(subject)}`;
}

export function PlanSection() {
  const usage = usePlanUsage();
  if (usage.isPending) {
    return (
      <Stack gap="4" aria-busy="true" aria-label="Loading your plan">
        <Skeleton h="8" w="40" />
        <Skeleton h="12" />
        <Skeleton h="12" />
      </Stack>
    );
  }
  if (usage.isError) {
    return (
      <Stack gap="3" align="start">
        <Text role="alert" color="red.600" fontSize="sm">
          Your plan could not be loaded.
        </Text>
        <Button size="sm" variant="outline" onClick={() => void usage.refetch()}>
          Try again
        </Button>
      </Stack>
    );
  }
  return <PlanDetails usage={usage.data} />;
}

function PlanDetails({ usage }: { usage: PlanUsage }) {
  const resets = formatResetDate(usage.resetsAt);
  const chosen = findPlan(usage.chosenPlan);
  const onChosenPlan = chosen !== undefined && chosen.id === usage.plan.id;
  const contact = usage.contactEmail;
  return (
    <Stack gap="6">
      <Flex align="center" gap="3" wrap="wrap">
        <Text fontSize="2xl" fontWeight="bold" letterSpacing="-0.01em" data-testid="plan-name">
          {usage.plan.name}
        </Text>
        <Badge colorPalette={usage.deploymentUnlimited ? 'purple' : 'teal'} variant="subtle">
          {usage.deploymentUnlimited ? 'No quotas on this deployment' : 'Your plan'}
        </Badge>
      </Flex>
      {usage.deploymentUnlimited && (
        <Text color="fg.muted">
          Whoever runs this deployment has switched quotas off: your forms may take any number of
          projects and submissions.
        </Text>
      )}
      <Stack gap="5">
        <UsageBar
          label="Projects"
          used={usage.projectsUsed}
          limit={usage.limits.projects}
          unit="project"
          standing
          hint="A project is one website: each distinct allowed origin among your forms. Forms on the same site share one project."
        />
        <UsageBar
          label="Submissions this month"
          used={usage.submissionsUsed}
          limit={usage.limits.submissionsPerMonth}
          unit="submission"
          hint={`Counted per calendar month (UTC); the count starts again on ${resets}. Spam caught by the honeypot is stored but not counted. You are e-mailed at 80 % and 100 %; past 100 %, new submissions are refused until then, and messages already received are kept.`}
        />
      </Stack>
      <Box>
        <Heading as="h3" size="sm" mb="1">
          Chosen when you registered
        </Heading>
        <Text color="fg.muted" data-testid="chosen-plan">
          {usage.chosenPlan
            ? `${chosenPlanText(usage)}${onChosenPlan ? ' — your plan now' : ''}`
            : 'No plan: you signed up without picking one on the pricing page.'}
        </Text>
      </Box>
      <Box>
        <Heading as="h3" size="sm" mb="1">
          How upgrading works
        </Heading>
        <Stack gap="2" color="fg.muted" fontSize="sm">
          <Text>
            Payment is not collected in the app yet. Every account starts on Free, and plans are
            switched by hand on request: write to{' '}
            <Link href={upgradeMailto(contact, chosen?.title ?? null)} color="teal.700">
              {contact}
            </Link>{' '}
            from your account&apos;s address and name the plan you want
            {chosen && !onChosenPlan ? ` (you picked ${chosen.title} when you registered)` : ''}.
            The new quotas hold from the moment it is switched, and this page shows them.
          </Text>
          <Text>
            {PLANS.map(
              (plan) =>
                `${plan.title}: ${projectsQuotaText(plan.quota).toLowerCase()}, ${submissionsQuotaText(plan.quota)}`,
            ).join(' · ')}
            .{' '}
            <Link asChild color="teal.700">
              <RouterLink to={paths.pricing}>Compare plans</RouterLink>
            </Link>
          </Text>
        </Stack>
      </Box>
    </Stack>
  );
}
