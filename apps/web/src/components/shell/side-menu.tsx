import '@mantine/core/styles/NavLink.css';
import { Box, NavLink, Stack, Text } from '@mantine/core';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ExternalIcon } from '../ui/icons';
import { MENU, type MenuEntry, type MenuSection } from './menu';

type TestId = (name: string) => string;

/** The side menu: entries grouped in sections, the active one highlighted, the version at the bottom. */
export function SideMenu({
  active,
  version,
  websiteUrl,
  onNavigate,
}: {
  active: MenuEntry | undefined;
  version: string | undefined;
  /** Given in the phone drawer, where the header has no room for the official-website button. */
  websiteUrl?: string | undefined;
  onNavigate?: () => void;
}) {
  const { t } = useTranslation();
  // The drawer's copy of the menu has test ids of its own: the hidden side menu is still in the page.
  const inDrawer = onNavigate !== undefined;
  const testId: TestId = (name) => (inDrawer ? `drawer-${name}` : name);

  return (
    <Stack component="nav" aria-label={t('nav.mainMenu')} justify="space-between" h="100%" gap="md">
      <Stack gap="sm">
        {MENU.map((section) => (
          <Section
            key={section.name ?? 'main'}
            section={section}
            active={active}
            onNavigate={onNavigate}
            testId={testId}
          />
        ))}
      </Stack>
      <Stack gap="xs">
        {websiteUrl ? (
          <NavLink
            component="a"
            href={websiteUrl}
            target="_blank"
            rel="noopener noreferrer"
            label={t('shell.officialWebsite')}
            leftSection={<ExternalIcon size={18} />}
            data-testid={testId('official-website')}
          />
        ) : null}
        {version ? (
          <Text size="xs" c="dimmed" ta="center" data-testid={testId('app-version')}>
            {t('shell.version', { version })}
          </Text>
        ) : null}
      </Stack>
    </Stack>
  );
}

function Section({
  section,
  active,
  onNavigate,
  testId,
}: {
  section: MenuSection;
  active: MenuEntry | undefined;
  onNavigate: (() => void) | undefined;
  testId: TestId;
}) {
  const { t } = useTranslation();
  const labelId = useId();
  return (
    <Box role="group" aria-labelledby={section.name ? labelId : undefined}>
      {section.name ? (
        <Text id={labelId} size="xs" fw={700} tt="uppercase" c="dimmed" px="sm" pb={4}>
          {t(`nav.${section.name}`)}
        </Text>
      ) : null}
      {section.entries.map((entry) => {
        const isActive = active?.name === entry.name;
        const Icon = entry.icon;
        return (
          <NavLink
            key={entry.name}
            component={Link}
            to={entry.path}
            label={t(`nav.${entry.name}`)}
            leftSection={<Icon size={18} />}
            active={isActive}
            variant="filled"
            aria-current={isActive ? 'page' : undefined}
            onClick={onNavigate}
            data-testid={testId(`nav-${entry.name}`)}
          />
        );
      })}
    </Box>
  );
}
