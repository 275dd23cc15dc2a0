import '@mantine/core/styles/Paper.css';
import '@mantine/core/styles/CloseButton.css';
import './notice-banner.css';
import { CloseButton, Group, Paper, Text } from '@mantine/core';
import type { CSSProperties } from 'react';
import { MegaphoneIcon } from './icons';
import { sanitizeHtml } from './safe-html';

/** Seconds the text takes to cross: longer notices move no faster than shorter ones. */
function scrollSeconds(html: string): number {
  const length = html.replace(/<[^>]*>/g, '').length;
  return Math.min(90, Math.max(15, Math.round(length * 0.3)));
}

/**
 * The notice as the customer's dashboard shows it, its text scrolling across: the panel's banner, and the console's
 * preview of it (which has no close button: `close` absent).
 */
export function NoticeView({
  content,
  label,
  close,
}: {
  content: string;
  /** The banner's accessible name. */
  label: string;
  close?: { label: string; onClose: () => void };
}) {
  // Sanitised by the server when saved and when served; once more here, as all HTML from the server is.
  const html = sanitizeHtml(content);
  return (
    <Paper
      component="section"
      aria-label={label}
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
        {close && <CloseButton aria-label={close.label} onClick={close.onClose} data-testid="notice-close" />}
      </Group>
    </Paper>
  );
}
