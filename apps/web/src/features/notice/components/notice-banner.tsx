import { lazy, Suspense, useState } from 'react';
import { useNotice } from '../api/get-notice';
import { dismissNotice, isNoticeDismissed } from '../utils/notice-dismissal';

const NoticeContent = lazy(() => import('./notice-content'));

/**
 * The dashboard's notice banner (spec section 2): the operator's notice scrolling across, until the customer closes
 * it for the rest of the session. Nothing shows when there is no notice, and nothing of the banner loads.
 */
export function NoticeBanner() {
  const notice = useNotice();
  const content = notice.data ?? '';
  const [closed, setClosed] = useState<string | null>(null);

  if (content.trim() === '' || closed === content || isNoticeDismissed(content)) return null;

  return (
    <Suspense fallback={null}>
      <NoticeContent
        content={content}
        onClose={() => {
          dismissNotice(content);
          setClosed(content);
        }}
      />
    </Suspense>
  );
}
