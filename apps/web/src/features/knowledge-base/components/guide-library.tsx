import '@mantine/core/styles/Paper.css';
import '@mantine/core/styles/Title.css';
import { Group, Paper, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ChevronRightIcon, SearchIcon } from '../../../components/ui/icons';
import { useLanguage } from '../../../i18n/use-language';
import { GUIDE_TEXT } from '../utils/guide-text';
import { GUIDES, type Guide } from '../utils/guides';
import { filterByTitle } from '../utils/search-guides';
import { GuideDrawer } from './guide-drawer';

export type GuideLibraryProps = {
  shopHref: string;
  /** The drawer's copy-the-link button, from the subscription feature. */
  copyLinkButton: ReactNode;
};

/** The knowledge base (spec section 2): the guides, a search on their titles in the language on screen, and a drawer. */
export function GuideLibrary({ shopHref, copyLinkButton }: GuideLibraryProps) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const listId = useId();
  const [query, setQuery] = useState('');
  const [openId, setOpenId] = useState<number | null>(null);
  const titles = GUIDE_TEXT[language];
  const found = filterByTitle(GUIDES, query, (guide) => titles[guide.id]?.title ?? '');

  return (
    <Stack gap="md">
      <TextInput
        type="search"
        label={t('knowledgeBase.search')}
        placeholder={t('knowledgeBase.searchPlaceholder')}
        leftSection={<SearchIcon size={16} />}
        value={query}
        onChange={(event) => setQuery(event.currentTarget.value)}
        aria-controls={listId}
        maw={420}
        data-testid="guide-search"
      />
      <Stack
        component="ul"
        id={listId}
        aria-label={t('knowledgeBase.guides')}
        gap="sm"
        p={0}
        m={0}
        style={{ listStyle: 'none' }}
        data-testid="guide-list"
      >
        {found.map((guide) => (
          <li key={guide.id}>
            <GuideEntry guide={guide} title={titles[guide.id]?.title ?? ''} onOpen={() => setOpenId(guide.id)} />
          </li>
        ))}
      </Stack>
      {/* Read out when a search finds nothing. */}
      <div role="status">
        {found.length === 0 ? (
          <Text c="dimmed" data-testid="guide-no-results">
            {t('knowledgeBase.noResults')}
          </Text>
        ) : null}
      </div>
      <GuideDrawer
        guide={GUIDES.find((guide) => guide.id === openId) ?? null}
        onClose={() => setOpenId(null)}
        shopHref={shopHref}
        copyLinkButton={copyLinkButton}
      />
    </Stack>
  );
}

function GuideEntry({ guide, title, onOpen }: { guide: Guide; title: string; onOpen: () => void }) {
  const { t } = useTranslation();
  return (
    <UnstyledButton w="100%" onClick={onOpen} aria-haspopup="dialog" data-testid={`guide-${guide.id}`}>
      <Paper withBorder p="md">
        <Group justify="space-between" wrap="nowrap" gap="sm">
          <Stack gap={2} miw={0}>
            <Text fw={600} data-testid="guide-title">
              {title}
            </Text>
            <Text size="sm" c="dimmed">
              {t('knowledgeBase.updated', { date: guide.updated })}
            </Text>
          </Stack>
          <ChevronRightIcon size={18} />
        </Group>
      </Paper>
    </UnstyledButton>
  );
}
