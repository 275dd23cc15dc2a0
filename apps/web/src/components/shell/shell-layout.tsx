import '@mantine/core/styles/AppShell.css';
import '@mantine/core/styles/Burger.css';
import '@mantine/core/styles/ModalBase.css';
import '@mantine/core/styles/Overlay.css';
import '@mantine/core/styles/CloseButton.css';
import '@mantine/core/styles/Drawer.css';
import { AppShell, Box, Burger, Button, CloseButton, Drawer, Group, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { ExternalIcon } from '../ui/icons';
import { LanguageSelect } from '../ui/language-select';
import { type MenuEntry, rememberActiveEntry } from './menu';
import { SideMenu } from './side-menu';
import { UserMenu } from './user-menu';

export type ShellLayoutProps = {
  /** The page title shown in the header. */
  title: string;
  /** Mobile mode (from=mobile): no header and no side menu, as inside a client app's web view. */
  bare: boolean;
  active: MenuEntry | undefined;
  email: string;
  version: string | undefined;
  websiteUrl: string | undefined;
  onUserCentre: () => void;
  onSignOut: () => void;
  children: ReactNode;
};

const HEADER_HEIGHT = 60;
const NAVBAR_WIDTH = 250;

/**
 * The signed-in frame: header (page title, official website, language, account) and side menu.
 * Below Mantine's `sm` breakpoint the side menu moves into a drawer opened by the burger button.
 */
export function ShellLayout(props: ShellLayoutProps) {
  const { title, bare, active, email, version, websiteUrl, onUserCentre, onSignOut, children } = props;
  const { t } = useTranslation();
  const [drawerOpened, drawer] = useDisclosure(false);

  useEffect(() => {
    if (active) rememberActiveEntry(active);
  }, [active]);

  if (bare) {
    return (
      <AppShell padding="md">
        <AppShell.Main id="main">{children}</AppShell.Main>
      </AppShell>
    );
  }

  return (
    <AppShell
      header={{ height: HEADER_HEIGHT }}
      navbar={{ width: NAVBAR_WIDTH, breakpoint: 'sm', collapsed: { mobile: true } }}
      padding="md"
    >
      <a className="skip-link" href="#main">
        {t('app.skipToContent')}
      </a>
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap" gap="xs">
          <Group gap="sm" wrap="nowrap" miw={0}>
            <Burger
              hiddenFrom="sm"
              size="sm"
              opened={drawerOpened}
              onClick={drawer.toggle}
              aria-label={t('shell.openMenu')}
              aria-expanded={drawerOpened}
              data-testid="menu-burger"
            />
            <Text fw={600} fz={{ base: 'md', sm: 'lg' }} truncate="end" data-testid="page-title">
              {title}
            </Text>
          </Group>
          <Group gap={4} wrap="nowrap">
            {websiteUrl ? (
              <Button
                component="a"
                href={websiteUrl}
                target="_blank"
                rel="noopener noreferrer"
                variant="subtle"
                color="dark"
                px="xs"
                leftSection={<ExternalIcon />}
                aria-label={t('shell.officialWebsite')}
                visibleFrom="sm"
                data-testid="official-website"
              >
                <Box component="span" visibleFrom="md">
                  {t('shell.officialWebsite')}
                </Box>
              </Button>
            ) : null}
            <LanguageSelect width={128} />
            <UserMenu email={email} onUserCentre={onUserCentre} onSignOut={onSignOut} />
          </Group>
        </Group>
      </AppShell.Header>
      {/* Off screen below `sm` (the drawer takes over): hidden there, so that it is neither read nor focused. */}
      <AppShell.Navbar p="sm" visibleFrom="sm">
        <SideMenu active={active} version={version} />
      </AppShell.Navbar>
      <Drawer.Root opened={drawerOpened} onClose={drawer.close} size={280} hiddenFrom="sm">
        <Drawer.Overlay />
        <Drawer.Content aria-label={t('nav.mainMenu')}>
          <Drawer.Body h="100%" p="sm">
            <Stack h="100%" gap="sm">
              <Group justify="space-between" wrap="nowrap" px="xs">
                <Text fw={700} c="blue.9">
                  {t('app.name')}
                </Text>
                <CloseButton onClick={drawer.close} aria-label={t('common.close')} data-testid="menu-close" />
              </Group>
              <Box flex={1} mih={0}>
                <SideMenu active={active} version={version} websiteUrl={websiteUrl} onNavigate={drawer.close} />
              </Box>
            </Stack>
          </Drawer.Body>
        </Drawer.Content>
      </Drawer.Root>
      <AppShell.Main id="main">{children}</AppShell.Main>
    </AppShell>
  );
}
