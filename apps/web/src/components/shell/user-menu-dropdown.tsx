import '@mantine/core/styles/Popover.css';
import '@mantine/core/styles/Menu.css';
import { Menu } from '@mantine/core';
import { Fragment, type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LogoutIcon, UserIcon } from '../ui/icons';
import { AccountButton } from './account-button';

export type UserMenuProps = {
  email: string;
  onUserCentre: () => void;
  onSignOut: () => void;
};

/**
 * An email with the places to break a line that a reader expects, after its @ and before its dots: a long one is
 * wider than a phone's menu, and would otherwise break in the middle of a word.
 */
function withBreaks(email: string): ReactNode[] {
  let end = 0;
  return email.split(/(?<=@)|(?=\.)/).map((part) => {
    const first = end === 0;
    end += part.length;
    // Keyed by where the part ends in the email, which no other part shares.
    return (
      <Fragment key={end}>
        {first ? null : <wbr />}
        {part}
      </Fragment>
    );
  });
}

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
      {/* As wide as its email where there is room; on a phone no wider than the screen, the email then wrapping. */}
      <Menu.Dropdown maw="calc(100vw - var(--mantine-spacing-md))">
        <Menu.Label fz="sm" c="dark" data-testid="user-email">
          {withBreaks(email)}
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
