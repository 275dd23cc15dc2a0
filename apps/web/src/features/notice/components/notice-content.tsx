import { useTranslation } from 'react-i18next';
import { NoticeView } from '../../../components/ui/notice-view';

/** The banner of a notice; loaded, with the sanitiser, only when there is a notice. */
export default function NoticeContent({ content, onClose }: { content: string; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <NoticeView
      content={content}
      label={t('dashboard.notice.label')}
      close={{ label: t('dashboard.notice.close'), onClose }}
    />
  );
}
