import { useTranslation } from 'react-i18next';
import { PublicLayout } from '../../components/ui/public-layout';
import { LicenceAgreement } from '../../features/auth/components/licence-agreement';

/** The licence agreement, opened in a new tab from the register screen. */
export default function ShowDocxRoute() {
  const { t } = useTranslation();
  return (
    <PublicLayout title={t('licence.title')} width={760}>
      <LicenceAgreement />
    </PublicLayout>
  );
}
