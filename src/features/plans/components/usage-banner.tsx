// The dashboard's word on the plan when it matters: from 80 % of the month's submissions (what
// happens at 100 %), once they are used up (posts are refused until the reset), and when the
// account has more projects than its plan allows (after a plan change). Nothing otherwise, and
// nothing while the plan is loading or could not be read: the page around it works without it.
import { Link as RouterLink } from 'react-router-dom';
import { Alert, Link } from '@chakra-ui/react';
import { paths } from '../../../config/paths';
import { formatNumber, formatQuantity } from '../../../config/plans';
import { usePlanUsage } from '../api/get-plan-usage';
import { formatResetDate, usageLevel, usagePercent, type PlanUsage } from '../plan-usage';

interface Notice {
  status: 'warning' | 'error';
  title: string;
  text: string;
}

/** What to say about this usage, or null when all is well. */
export function usageNotice(usage: PlanUsage): Notice | null {
  const limit = usage.limits.submissionsPerMonth;
  const used = usage.submissionsUsed;
  const resets = formatResetDate(usage.resetsAt);
  const plan = usage.plan.name;
  const level = usageLevel(used, limit);
  if (limit !== null && level === 'exhausted') {
    return {
      status: 'error',
      title: `Your forms have used all ${formatQuantity(limit, 'submission')} of this month`,
      text:
        `Until the count starts again on ${resets}, new submissions are refused and not stored: ` +
        'visitors are told their message could not be accepted. Messages you have already ' +
        `received are kept. Your ${plan} plan can be changed on request: see your plan for how.`,
    };
  }
  if (limit !== null && level === 'warning') {
    return {
      status: 'warning',
      title: `You have used ${formatNumber(used)} of ${formatQuantity(limit, 'submission')} this month (${usagePercent(used, limit)} %)`,
      text:
        `Once all ${formatNumber(limit)} are used, new submissions to your forms are refused until ` +
        `the count starts again on ${resets}. Messages you have already received are kept. ` +
        `For more, your ${plan} plan can be changed on request.`,
    };
  }
  const projects = usage.limits.projects;
  if (projects !== null && usage.projectsUsed > projects) {
    return {
      status: 'warning',
      title: `Your forms are on ${formatQuantity(usage.projectsUsed, 'website')}; your ${plan} plan includes ${formatQuantity(projects, 'project')}`,
      text:
        'Your forms keep working, but new forms can only go on websites you already use, and ' +
        'forms cannot move to a new website, until you are within your plan.',
    };
  }
  return null;
}

export function UsageBanner() {
  const { data } = usePlanUsage();
  const notice = data ? usageNotice(data) : null;
  if (!notice) return null;
  return (
    <Alert.Root status={notice.status} mb="6" data-testid="usage-banner" alignItems="start">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>{notice.title}</Alert.Title>
        <Alert.Description>
          {notice.text}{' '}
          <Link asChild fontWeight="semibold" textDecoration="underline">
            <RouterLink to={`${paths.settings}#plan`}>See your plan and usage</RouterLink>
          </Link>
        </Alert.Description>
      </Alert.Content>
    </Alert.Root>
  );
}
