import '@mantine/core/styles/Typography.css';
import { Typography, type TypographyProps } from '@mantine/core';
import DOMPurify from 'dompurify';
import { useMemo } from 'react';

/**
 * No scripts, event handlers, forms, styles or style sheets: what a plan description needs and nothing more (the
 * panel's Content-Security-Policy refuses style attributes in any case).
 */
const PURIFY_CONFIG = {
  USE_PROFILES: { html: true },
  FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe'],
  FORBID_ATTR: ['style'],
};

export function sanitizeHtml(html: string): string {
  return DOMPurify.sanitize(html, PURIFY_CONFIG);
}

/** HTML from the server (a plan's description), always through DOMPurify before it reaches the page. */
export function SafeHtml({ html, ...props }: { html: string } & TypographyProps) {
  const clean = useMemo(() => sanitizeHtml(html), [html]);
  // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised with DOMPurify just above
  return <Typography {...props} dangerouslySetInnerHTML={{ __html: clean }} />;
}
