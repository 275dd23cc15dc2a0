import '@mantine/core/styles/Popover.css';
import '@mantine/core/styles/Menu.css';
import { Box, Button, Menu } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ChevronDownIcon, LogoutIcon, UserIcon } from '../ui/icons';

/** The account dropdown of the header: the signed-in email, the user centre and sign out. */
export function UserMenu({
  email,
  onUserCentre,
  onSignOut,
}: {
  email: string;
  onUserCentre: () => void;
  onSignOut: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Menu position="bottom-end" withinPortal={false} withInitialFocusPlaceholder={false}>
      <Menu.Target>
        <Button
          variant="subtle"
          color="dark"
          px="xs"
          leftSection={<UserIcon />}
          rightSection={
            <Box component="span" visibleFrom="sm" display="flex">
              <ChevronDownIcon size={14} />
            </Box>
          }
          aria-label={t('shell.accountMenu', { email })}
          data-testid="user-menu"
        >
          <Box component="span" visibleFrom="sm" maw={200} style={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>
            {email}
          </Box>
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label fz="sm" c="dark" data-testid="user-email">
          {email}
        </Menu.Label>
        <Menu.Divider />
        <Menu.Item leftSection={<UserIcon size={16} />} onClick={onUserCentre} data-testid="menu-user-centre">
          {t('nav.userCentre')}
        </Menu.Item>
        <Menu.Item leftSection={<LogoutIcon size={16} />} onClick={onSignOut} data-testid="menu-sign-out">
          {t('shell.signOut')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
