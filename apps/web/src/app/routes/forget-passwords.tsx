import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PublicLayout } from '../../components/ui/public-layout';
import { ResetPasswordForm } from '../../features/auth/components/reset-password-form';
import { PATHS } from '../../lib/paths';

export default function ForgetPasswordsRoute() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <PublicLayout title={t('auth.reset.title')}>
      <ResetPasswordForm onReset={() => void navigate(PATHS.login, { replace: true })} />
    </PublicLayout>
  );
}
