// The login page: sign in, request a password reset, or set a new password after a reset link.
import { useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { Link, Text } from '@chakra-ui/react';
import { PageMeta } from '../../components/page-meta';
import { PAGE_META } from '../../config/seo';
import { paths } from '../../config/paths';
import { useAuth, useSignedInTarget } from '../../lib/auth';
import { AuthCard } from './components/auth-card';
import { LoginForm } from './components/login-form';
import { ForgotPasswordForm } from './components/forgot-password-form';
import { NewPasswordForm } from './components/new-password-form';

export function LoginPage() {
  const navigate = useNavigate();
  const { recovering, finishRecovery, user } = useAuth();
  // The page the visitor had asked for before being sent here (same-app paths only), else the
  // dashboard.
  const target = useSignedInTarget();
  const [mode, setMode] = useState<'sign-in' | 'forgot'>('sign-in');
  const title = recovering
    ? 'Set a new password'
    : mode === 'forgot'
      ? 'Reset your password'
      : 'Welcome back';
  // A reset link signs the visitor in for one purpose: that page is nobody's search result.
  const meta = recovering ? (
    <PageMeta title="Set a new password" noindex />
  ) : (
    <PageMeta {...PAGE_META.login} />
  );

  const signUpLink = (
    <Text>
      No account yet?{' '}
      <Link asChild color="teal.700" fontWeight="semibold">
        <RouterLink to={paths.register}>Sign Up</RouterLink>
      </Link>
    </Text>
  );

  if (recovering) {
    return (
      <>
        {meta}
        <AuthCard title={title} subtitle={user?.email ? `for ${user.email}` : undefined}>
          <NewPasswordForm
            onDone={() => {
              finishRecovery();
              navigate(paths.dashboard, { replace: true });
            }}
          />
        </AuthCard>
      </>
    );
  }

  return (
    <>
      {meta}
      <AuthCard
        title={title}
        subtitle={mode === 'sign-in' ? 'Sign in to manage your forms and messages.' : undefined}
        footer={signUpLink}
      >
        {mode === 'sign-in' ? (
          <LoginForm
            onSignedIn={() => navigate(target, { replace: true })}
            onForgotPassword={() => setMode('forgot')}
          />
        ) : (
          <ForgotPasswordForm onBack={() => setMode('sign-in')} />
        )}
      </AuthCard>
    </>
  );
}
