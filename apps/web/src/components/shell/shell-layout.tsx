import '@mantine/core/styles/AppShell.css';
import '@mantine/core/styles/Burger.css';
import { AppShell, Box, Burger, Button, Group, Text } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { lazy, memo, type ReactNode, Suspense, useEffect, useState } from 'react';
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

/** Mantine's `sm` breakpoint and up: the side menu beside the screens. Below it, the burger's drawer takes over. */
const WIDE_QUERY = '(min-width: 48em)';

const loadDrawer = () => import('./navigation-drawer');
const NavigationDrawer = lazy(loadDrawer);

/**
 * The signed-in frame: header (page title, official website, language, account) and side menu.
 * Below Mantine's `sm` breakpoint the side menu moves into a drawer opened by the burger button.
 */
export const ShellLayout = memo(function ShellLayout(props: ShellLayoutProps) {
  const { title, bare, active, email, version, websiteUrl, onUserCentre, onSignOut, children } = props;
  const { t } = useTranslation();
  const [drawerOpened, drawer] = useDisclosure(false);
  const wide = useMediaQuery(WIDE_QUERY, false, { getInitialValueInEffect: false });
  // The drawer's code loads when the burger is first reached for, and stays once it has been opened.
  const [drawerWanted, setDrawerWanted] = useState(false);
  if (drawerOpened && !drawerWanted) setDrawerWanted(true);

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
              onPointerEnter={() => void loadDrawer()}
              onFocus={() => void loadDrawer()}
              aria-label={t('shell.openMenu')}
              aria-expanded={drawerOpened}
              data-testid="menu-burger"
            />
            {/* Smaller on a phone, and on two lines rather than cut where it needs them: "Detalhes do pedido" is
                wider than a 375 px phone leaves it. */}
            <Text fw={600} fz={{ base: 'sm', xs: 'md', sm: 'lg' }} lh={1.2} data-testid="page-title">
              {title}
            </Text>
          </Group>
          {/* Never narrower than its content: a native select's width gives way in a flex row, and a long title
              clipped the language's name where the title should have been shortened. */}
          <Group gap={4} wrap="nowrap" style={{ flexShrink: 0 }}>
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
            <LanguageSelect />
            <UserMenu email={email} onUserCentre={onUserCentre} onSignOut={onSignOut} />
          </Group>
        </Group>
      </AppShell.Header>
      {/* Not rendered at all below `sm`, where it would be hidden: phones neither render nor lay it out. */}
      {wide ? (
        <AppShell.Navbar p="sm">
          <SideMenu active={active} version={version} />
        </AppShell.Navbar>
      ) : null}
      {drawerWanted ? (
        <Suspense fallback={null}>
          <NavigationDrawer
            opened={drawerOpened}
            onClose={drawer.close}
            active={active}
            version={version}
            websiteUrl={websiteUrl}
          />
        </Suspense>
      ) : null}
      <AppShell.Main id="main">{children}</AppShell.Main>
    </AppShell>
  );
});
