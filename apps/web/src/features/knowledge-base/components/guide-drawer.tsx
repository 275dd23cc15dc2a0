import '@mantine/core/styles/ModalBase.css';
import '@mantine/core/styles/Overlay.css';
import '@mantine/core/styles/CloseButton.css';
import '@mantine/core/styles/Drawer.css';
import '@mantine/core/styles/Title.css';
import '@mantine/core/styles/ThemeIcon.css';
import '@mantine/core/styles/VisuallyHidden.css';
import { Button, Drawer, Group, Stack, Text, ThemeIcon, Title, VisuallyHidden } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DownloadIcon, ExternalIcon } from '../../../components/ui/icons';
import { useLanguage } from '../../../i18n/use-language';
import { useRuntimeConfig } from '../../../lib/runtime-config';
import { GUIDE_TEXT, ILLUSTRATION_ALT } from '../utils/guide-text';
import type { Guide } from '../utils/guides';
import { GuideIllustration } from './guide-illustration';

export type GuideDrawerProps = {
  guide: Guide | null;
  onClose: () => void;
  shopHref: string;
  /** Step 2's button: copies the subscription link (the subscription feature's, composed by the route). */
  copyLinkButton: ReactNode;
};

/**
 * One guide in a side drawer (spec section 2): buy a plan, copy the subscription link, download the app (a file for
 * Clash and v2rayNG, a page in a new tab for the others, from the runtime configuration), then the app's own steps
 * with our drawings.
 */
export function GuideDrawer({ guide, onClose, shopHref, copyLinkButton }: GuideDrawerProps) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const text = guide ? GUIDE_TEXT[language][guide.id] : undefined;

  return (
    <Drawer.Root opened={guide !== null} onClose={onClose} position="right" size="md">
      <Drawer.Overlay />
      <Drawer.Content data-testid="guide-drawer">
        {/* Not a <header> landmark: inside the dialog it would be a second banner of the page. */}
        <Drawer.Header role="none">
          <Drawer.Title fw={700} fz="lg">
            {text?.title}
          </Drawer.Title>
          <Drawer.CloseButton aria-label={t('common.close')} />
        </Drawer.Header>
        <Drawer.Body>
          {guide && text ? (
            <Stack gap="md">
              <Text size="sm" c="dimmed">
                {t('knowledgeBase.updated', { date: guide.updated })}
              </Text>
              <Title order={3} size="h5">
                {t('knowledgeBase.steps')}
              </Title>
              <Stack component="ol" gap="lg" p={0} m={0} style={{ listStyle: 'none' }} data-testid="guide-steps">
                <Step number={1} title={t('knowledgeBase.buyTitle')}>
                  <Text size="sm">{t('knowledgeBase.buyText')}</Text>
                  <div>
                    <Button component={Link} to={shopHref} size="sm" data-testid="guide-buy">
                      {t('knowledgeBase.buyAction')}
                    </Button>
                  </div>
                </Step>
                <Step number={2} title={t('knowledgeBase.copyTitle')}>
                  <Text size="sm">{t('knowledgeBase.copyText')}</Text>
                  <div>{copyLinkButton}</div>
                </Step>
                <Step number={3} title={t('knowledgeBase.downloadTitle')}>
                  <Text size="sm">
                    {t(
                      guide.download === 'file' ? 'knowledgeBase.downloadFileText' : 'knowledgeBase.downloadPageText',
                      {
                        app: text.app,
                      },
                    )}
                  </Text>
                  <div>
                    <DownloadLink guide={guide} app={text.app} />
                  </div>
                </Step>
                {guide.illustrations.map((kind, index) => (
                  <Step key={kind} number={index + 4}>
                    <Text size="sm">{text.steps[index]}</Text>
                    <GuideIllustration kind={kind} alt={ILLUSTRATION_ALT[language][kind]} />
                  </Step>
                ))}
              </Stack>
            </Stack>
          ) : null}
        </Drawer.Body>
      </Drawer.Content>
    </Drawer.Root>
  );
}

function Step({ number, title, children }: { number: number; title?: string; children: ReactNode }) {
  return (
    <Group component="li" align="flex-start" wrap="nowrap" gap="sm" data-testid="guide-step">
      {/* The list numbers the steps for screen readers; the badge repeats it for the eye. */}
      <ThemeIcon size={28} radius="xl" variant="light" c="blue.9" aria-hidden="true" style={{ flex: 'none' }}>
        <Text component="span" size="sm" fw={700}>
          {number}
        </Text>
      </ThemeIcon>
      <Stack gap="xs" flex={1} miw={0}>
        {title ? (
          <Title order={4} size="h6">
            {title}
          </Title>
        ) : null}
        {children}
      </Stack>
    </Group>
  );
}

/** Step 3: the configured URL as a download (Clash, v2rayNG) or as a page in a new tab (the others). */
function DownloadLink({ guide, app }: { guide: Guide; app: string }) {
  const { t } = useTranslation();
  const config = useRuntimeConfig();
  const url = config.data?.downloads[guide.app];
  if (!url) {
    return (
      <Button size="sm" variant="default" disabled loading={config.isPending}>
        {t(guide.download === 'file' ? 'knowledgeBase.downloadFile' : 'knowledgeBase.downloadPage', { app })}
      </Button>
    );
  }
  if (guide.download === 'file') {
    return (
      <Button
        component="a"
        href={url}
        download
        size="sm"
        variant="default"
        leftSection={<DownloadIcon size={16} />}
        data-testid="guide-download"
      >
        {t('knowledgeBase.downloadFile', { app })}
      </Button>
    );
  }
  return (
    <Button
      component="a"
      href={url}
      target="_blank"
      rel="noopener noreferrer"
      size="sm"
      variant="default"
      rightSection={<ExternalIcon size={16} />}
      data-testid="guide-download"
    >
      {t('knowledgeBase.downloadPage', { app })}
      <VisuallyHidden>{` ${t('knowledgeBase.opensNewTab')}`}</VisuallyHidden>
    </Button>
  );
}
