import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PublicLayout } from '../../components/ui/public-layout';
import { LoginForm } from '../../features/auth/components/login-form';
import { PATHS } from '../../lib/paths';

/** The login screen; entering it forgets what the previous session had fetched. */
export function LoginRoute() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  useEffect(() => {
    // Only queries no screen is using: the signed-in screens are gone by now.
    queryClient.removeQueries({ predicate: (query) => query.getObserversCount() === 0 });
  }, [queryClient]);

  return (
    <PublicLayout title={t('auth.login.title')} subtitle={t('auth.login.subtitle')}>
      <LoginForm onLoggedIn={() => void navigate(PATHS.home, { replace: true })} />
    </PublicLayout>
  );
}
