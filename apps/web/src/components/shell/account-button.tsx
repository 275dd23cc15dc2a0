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
      className="account-button"
      data-testid="user-menu"
      {...props}
    >
      <Box component="span" visibleFrom="sm" maw={200} style={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>
        {email}
      </Box>
    </Button>
  );
}
