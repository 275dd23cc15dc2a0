import '@mantine/core/styles/Paper.css';
import '@mantine/core/styles/CloseButton.css';
import './notice-banner.css';
import { CloseButton, Group, Paper, Text } from '@mantine/core';
import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { MegaphoneIcon } from '../../../components/ui/icons';
import { sanitizeHtml } from '../../../components/ui/safe-html';

/** Seconds the text takes to cross: longer notices move no faster than shorter ones. */
function scrollSeconds(html: string): number {
  const length = html.replace(/<[^>]*>/g, '').length;
  return Math.min(90, Math.max(15, Math.round(length * 0.3)));
}

/** The banner of a notice, its text scrolling across; loaded, with the sanitiser, only when there is a notice. */
export default function NoticeContent({ content, onClose }: { content: string; onClose: () => void }) {
  const { t } = useTranslation();
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
        <CloseButton aria-label={t('dashboard.notice.close')} onClick={onClose} data-testid="notice-close" />
      </Group>
    </Paper>
  );
}
