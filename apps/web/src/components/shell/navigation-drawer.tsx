import '@mantine/core/styles/ModalBase.css';
import '@mantine/core/styles/Overlay.css';
import '@mantine/core/styles/CloseButton.css';
import '@mantine/core/styles/Drawer.css';
import { Box, CloseButton, Drawer, Group, Stack, Text } from '@mantine/core';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useOpenedAfterMount } from '../ui/opened-after-mount';
import type { MenuEntry } from './menu';
import { SideMenu } from './side-menu';

export type NavigationDrawerProps = {
  opened: boolean;
  onClose: () => void;
  active: MenuEntry | undefined;
  version: string | undefined;
  websiteUrl: string | undefined;
};

/** The side menu in a drawer, for phones: loaded when the burger button first opens it. */
export default function NavigationDrawer({ opened, onClose, active, version, websiteUrl }: NavigationDrawerProps) {
  const { t } = useTranslation();
  // Closed by a menu entry, the drawer leaves the focus to the new screen's heading (useFocusOnNavigation) rather than
  // give it back to the burger; closed otherwise (Escape, its close button, the overlay), it gives it back.
  const navigated = useRef(false);
  const close = () => {
    navigated.current = false;
    onClose();
  };
  const navigate = () => {
    navigated.current = true;
    onClose();
  };
  return (
    <Drawer.Root
      opened={useOpenedAfterMount(opened)}
      onClose={close}
      returnFocus={!navigated.current}
      size={280}
      hiddenFrom="sm"
    >
      <Drawer.Overlay />
      <Drawer.Content aria-label={t('nav.mainMenu')}>
        <Drawer.Body h="100%" p="sm">
          <Stack h="100%" gap="sm">
            <Group justify="space-between" wrap="nowrap" px="xs">
              <Text fw={700} c="blue.9">
                {t('app.name')}
              </Text>
              <CloseButton onClick={close} aria-label={t('common.close')} data-testid="menu-close" />
            </Group>
            <Box flex={1} mih={0}>
              <SideMenu active={active} version={version} websiteUrl={websiteUrl} onNavigate={navigate} />
            </Box>
          </Stack>
        </Drawer.Body>
      </Drawer.Content>
    </Drawer.Root>
  );
}
