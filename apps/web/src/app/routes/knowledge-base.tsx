import '@mantine/core/styles/Title.css';
import { Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { GuideLibrary } from '../../features/knowledge-base/components/guide-library';
import { CopyLinkButton } from '../../features/subscription/components/copy-link-button';
import { PATHS } from '../../lib/paths';
import { inMode, useUrlOptions } from '../use-url-options';

/** The knowledge base, `/document`: the guides, whose copy step copies the subscription link. */
export default function KnowledgeBaseRoute() {
  const { t } = useTranslation();
  const { mobile } = useUrlOptions();
  return (
    <Stack gap="lg" maw={960}>
      <Title order={1} size="h2">
        {t('nav.knowledgeBase')}
      </Title>
      <GuideLibrary
        shopHref={inMode(PATHS.shop, mobile)}
        copyLinkButton={<CopyLinkButton size="sm" variant="default" testId="guide-copy-link" />}
      />
    </Stack>
  );
}
