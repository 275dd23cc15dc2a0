import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PublicLayout } from '../../components/ui/public-layout';
import { RegisterForm } from '../../features/auth/components/register-form';
import { PATHS } from '../../lib/paths';

export default function RegisterRoute() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <PublicLayout title={t('auth.register.title')}>
      <RegisterForm onRegistered={() => void navigate(PATHS.login)} />
    </PublicLayout>
  );
}
