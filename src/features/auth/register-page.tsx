// The register page; shows the plan chosen on the pricing page, if any.
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router-dom';
import { Badge, HStack, Link, Text } from '@chakra-ui/react';
import { useDocumentTitle } from '../../components/use-document-title';
import { paths } from '../../config/paths';
import { findPlan } from '../../config/site';
import { AuthCard } from './components/auth-card';
import { RegisterForm } from './components/register-form';

export function RegisterPage() {
  useDocumentTitle('Create your account');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const plan = findPlan(params.get('plan'));

  return (
    <AuthCard
      title="Create your account"
      subtitle={
        plan ? (
          <HStack as="span" justify="center" gap="2" wrap="wrap">
            <span>Selected plan:</span>
            <Badge colorPalette="teal" variant="subtle" size="lg">
              {plan.title} · €{plan.monthly}/month
            </Badge>
            <Link asChild color="teal.700" fontSize="sm">
              <RouterLink to={paths.pricing}>Change</RouterLink>
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
      <RegisterForm onSignedUp={() => navigate(paths.dashboard, { replace: true })} />
    </AuthCard>
  );
}
