import { Box, Button } from '@mantine/core';
import type { ComponentPropsWithRef } from 'react';
import { useTranslation } from 'react-i18next';
import { ChevronDownIcon, UserIcon } from '../ui/icons';
import './account-button.css';

/** The header's account button, the menu's target: the email beside the icon where there is room. */
export function AccountButton({ email, ...props }: { email: string } & ComponentPropsWithRef<'button'>) {
  const { t } = useTranslation();
  return (
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
      title={email}
      className="account-button"
      data-testid="user-menu"
      {...props}
    >
      {/* One line, cut with an ellipsis where it is long: the whole email is in the button's name and its hover text,
          and in the menu it opens. */}
      <Box
        component="span"
        visibleFrom="sm"
        maw={200}
        style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
      >
        {email}
      </Box>
    </Button>
  );
}
