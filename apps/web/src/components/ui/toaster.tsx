import { Notification } from '@mantine/core';
import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { notifications, shownToasts, subscribeToasts } from '../../lib/toasts';

/** The toasts, stacked at the top of the screen; each is an alert that a screen reader reads as it appears. */
export function Toaster() {
  const { t } = useTranslation();
  const toasts = useSyncExternalStore(subscribeToasts, shownToasts, shownToasts);
  if (toasts.length === 0) return null;
  return (
    <div className="toaster">
      {toasts.map(({ id, message, title, color, 'data-tone': tone }) => (
        <Notification
          key={id}
          color={color}
          title={title}
          data-tone={tone}
          onClose={() => notifications.hide(id)}
          closeButtonProps={{ 'aria-label': t('common.close') }}
        >
          {message}
        </Notification>
      ))}
    </div>
  );
}
