import { AppShell, Burger, Button, Group, NavLink, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { adminSignOut, type OperatorSession } from '@mutenet/contract';
import { useMutation } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { NavLink as RouterLink, useLocation } from 'react-router';
import { useFocusOnNavigation } from '../../app/use-focus-on-navigation';
import { consoleCall } from '../api';
import { useText } from '../i18n';
import type { ConsoleScreen } from '../screens';
import { useReloadSession } from '../session/use-session';
import { consoleStrings, ROLE_KEY } from '../strings';
import { LanguageSwitch } from './language-switch';

function ScreenLink({ screen, onNavigate }: { screen: ConsoleScreen; onNavigate: () => void }) {
  const { t } = useText(screen.strings);
  const { pathname } = useLocation();
  const active = pathname === `/${screen.path}` || pathname.startsWith(`/${screen.path}/`);
  return (
    <NavLink
      component={RouterLink}
      to={`/${screen.path}`}
      label={t('nav')}
      active={active}
      variant="filled"
      aria-current={active ? 'page' : undefined}
      onClick={onNavigate}
    />
  );
}

/** The console's frame: the header, the menu of the sections the operator may open (a burger at phone width). */
export function ConsoleShell({
  session,
  screens,
  children,
}: {
  session: OperatorSession;
  screens: readonly ConsoleScreen[];
  children: ReactNode;
}) {
  const { t } = useText(consoleStrings);
  const [opened, { toggle, close }] = useDisclosure(false);
  const reload = useReloadSession();
  const { pathname } = useLocation();
  useFocusOnNavigation(pathname);
  const signOut = useMutation({ mutationFn: () => consoleCall(adminSignOut), onSettled: () => reload() });

  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="md"
    >
      <a className="console-skip-link" href="#console-main">
        {t('skip')}
      </a>
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={t('menu')} />
            <Text fw={700}>{t('brand')}</Text>
          </Group>
          <LanguageSwitch />
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" component="nav" aria-label={t('navigation')}>
        <Stack justify="space-between" h="100%">
          <div>
            {screens.map((screen) => (
              <ScreenLink key={screen.path} screen={screen} onNavigate={close} />
            ))}
            <NavLink component={RouterLink} to="/account/totp" label={t('account')} onClick={close} />
          </div>
          <Stack gap="xs">
            <Text size="sm" c="dimmed">
              {t('signedInAs', { email: session.email, role: t(ROLE_KEY[session.role]) })}
            </Text>
            <Button variant="default" onClick={() => signOut.mutate()} loading={signOut.isPending}>
              {t('signOut')}
            </Button>
          </Stack>
        </Stack>
      </AppShell.Navbar>
      <AppShell.Main id="console-main">{children}</AppShell.Main>
    </AppShell>
  );
}
