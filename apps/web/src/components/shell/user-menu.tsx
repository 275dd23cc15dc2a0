import { lazy, Suspense, useState } from 'react';
import { AccountButton } from './account-button';
import type { UserMenuProps } from './user-menu-dropdown';

/** The menu itself (Mantine's Menu and its positioning) loads when the customer first reaches for it. */
const loadDropdown = () => import('./user-menu-dropdown');
const UserMenuDropdown = lazy(loadDropdown);

/** The account dropdown of the header: the signed-in email, the user centre and sign out. */
export function UserMenu(props: UserMenuProps) {
  const [wanted, setWanted] = useState(false);
  const button = (
    <AccountButton
      email={props.email}
      aria-haspopup="menu"
      aria-expanded={false}
      onPointerEnter={() => void loadDropdown()}
      onFocus={() => void loadDropdown()}
      onClick={() => setWanted(true)}
    />
  );
  if (!wanted) return button;
  return (
    <Suspense fallback={button}>
      <UserMenuDropdown {...props} />
    </Suspense>
  );
}
