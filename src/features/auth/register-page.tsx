// The register page; shows the plan and billing cycle chosen on the pricing page, if any (and
// that the account starts on Free, keeping the choice), passes them on to the sign-up, and after
// signing up, where the confirmation link went.
import { useState } from 'react';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router-dom';
import { Badge, HStack, Link, Text } from '@chakra-ui/react';
import { PageMeta } from '../../components/page-meta';
import { PAGE_META } from '../../config/seo';
import { paths } from '../../config/paths';
import {
  billingParam,
  findPlan,
  FREE_PLAN,
  parseBilling,
  planPrice,
  projectsQuotaText,
  submissionsQuotaText,
} from '../../config/plans';
import { AuthCard } from './components/auth-card';
import { CheckInbox } from './components/check-inbox';
import { RegisterForm } from './components/register-form';

export function RegisterPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const plan = findPlan(params.get('plan'));
  const cycle = parseBilling(params.get('billing'));
  const price = plan ? planPrice(plan, cycle) : null;
  const [sentTo, setSentTo] = useState<string | null>(null);

  if (sentTo) {
    return (
      <>
        <PageMeta {...PAGE_META.register} />
        <AuthCard
          title="Check your inbox"
          footer={
            <Text>
              Confirmed already?{' '}
              <Link asChild color="teal.700" fontWeight="semibold">
                <RouterLink to={paths.login}>Sign in</RouterLink>
              </Link>
            </Text>
          }
        >
          <CheckInbox email={sentTo} />
        </AuthCard>
      </>
    );
  }

  return (
    <>
      <PageMeta {...PAGE_META.register} />
      <AuthCard
        title="Create your account"
        subtitle={
          plan && price ? (
            <HStack as="span" justify="center" gap="2" wrap="wrap">
              <span>Selected plan:</span>
              <Badge colorPalette="teal" variant="subtle" size="lg">
                {plan.title} · €{price.amount}/{price.unit}
              </Badge>
              <Link asChild color="teal.700" fontSize="sm">
                <RouterLink to={`${paths.pricing}?billing=${billingParam(cycle)}`}>
                  Change
                </RouterLink>
              </Link>
            </HStack>
          ) : (
            'Start collecting form submissions in minutes.'
          )
        }
        footer={
          <Text>
            Already have an account?{' '}
            <Link asChild color="teal.700" fontWeight="semibold">
              <RouterLink to={paths.login}>Sign in</RouterLink>
            </Link>
          </Text>
        }
      >
        {plan && (
          <Text fontSize="sm" color="fg.muted" textAlign="center" data-testid="plan-note">
            Every account starts on Free ({projectsQuotaText(FREE_PLAN.quota).toLowerCase()},{' '}
            {submissionsQuotaText(FREE_PLAN.quota)}). We keep {plan.title} with your account; plans
            are switched by hand on request, no card needed now.
          </Text>
        )}
        <RegisterForm
          plan={plan ? { id: plan.id, billing: billingParam(cycle) } : null}
          onSignedUp={() => navigate(paths.dashboard, { replace: true })}
          onConfirmationSent={setSentTo}
        />
      </AuthCard>
    </>
  );
}
