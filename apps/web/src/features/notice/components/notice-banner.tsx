import '@mantine/core/styles/Paper.css';
import '@mantine/core/styles/CloseButton.css';
import './notice-banner.css';
import { CloseButton, Group, Paper, Text } from '@mantine/core';
import { type CSSProperties, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MegaphoneIcon } from '../../../components/ui/icons';
import { sanitizeHtml } from '../../../components/ui/safe-html';
import { useNotice } from '../api/get-notice';
import { dismissNotice, isNoticeDismissed } from '../utils/notice-dismissal';

/** Seconds the text takes to cross: longer notices move no faster than shorter ones. */
function scrollSeconds(html: string): number {
  const length = html.replace(/<[^>]*>/g, '').length;
  return Math.min(90, Math.max(15, Math.round(length * 0.3)));
}

/**
 * The dashboard's notice banner (spec section 2): the operator's notice scrolling across, until the customer closes
 * it for the rest of the session. Nothing shows when there is no notice.
 */
export function NoticeBanner() {
  const { t } = useTranslation();
  const notice = useNotice();
  const content = notice.data ?? '';
  const [closed, setClosed] = useState<string | null>(null);

  if (content.trim() === '' || closed === content || isNoticeDismissed(content)) return null;

  // Sanitised by the server when saved and when served; once more here, as all HTML from the server is.
  const html = sanitizeHtml(content);
  return (
    <Paper
      component="section"
      aria-label={t('dashboard.notice.label')}
      className="notice-banner"
      withBorder
      px="md"
      py="xs"
      bg="var(--mantine-color-blue-light)"
      data-testid="notice-banner"
    >
      <Group gap="sm" wrap="nowrap">
        <Text component="span" c="blue.9" display="inline-flex">
          <MegaphoneIcon size={20} />
        </Text>
        <div className="notice-banner__viewport">
          <Text
            component="div"
            size="sm"
            className="notice-banner__track"
            style={{ '--notice-banner-duration': `${scrollSeconds(html)}s` } as CSSProperties}
            // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised with DOMPurify just above
            dangerouslySetInnerHTML={{ __html: html }}
            data-testid="notice-text"
          />
        </div>
        <CloseButton
          aria-label={t('dashboard.notice.close')}
          onClick={() => {
            dismissNotice(content);
            setClosed(content);
          }}
          data-testid="notice-close"
        />
      </Group>
    </Paper>
  );
}
