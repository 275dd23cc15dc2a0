import '@mantine/core/styles/Popover.css';
import '@mantine/core/styles/Menu.css';
import { Menu } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LogoutIcon, UserIcon } from '../ui/icons';
import { AccountButton } from './account-button';

export type UserMenuProps = {
  email: string;
  onUserCentre: () => void;
  onSignOut: () => void;
};

/**
 * The account menu, loaded by the first click on the account button it takes the place of. It mounts closed, gives
 * its own button the focus and opens, so that the focus goes back to that button when the menu closes.
 */
export default function UserMenuDropdown({ email, onUserCentre, onSignOut }: UserMenuProps) {
  const { t } = useTranslation();
  const target = useRef<HTMLButtonElement>(null);
  const [opened, setOpened] = useState(false);
  useEffect(() => {
    target.current?.focus();
    setOpened(true);
  }, []);

  return (
    <Menu
      opened={opened}
      onChange={setOpened}
      position="bottom-end"
      withinPortal={false}
      withInitialFocusPlaceholder={false}
    >
      <Menu.Target>
        <AccountButton email={email} ref={target} />
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
