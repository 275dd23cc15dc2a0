import { Button, type ButtonProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { CopyIcon } from '../../../components/ui/icons';
import { i18n } from '../../../i18n/i18n';
import { copyText } from '../../../lib/clipboard';
import { toastSuccess, toastWarning } from '../../../lib/notify';
import { useSubscribeUrl } from '../api/get-subscribe-url';

/** Copies the link and says how it went: "Link copied", or how to copy it by hand. */
export async function copyLink(link: string): Promise<boolean> {
  const copied = await copyText(link);
  if (copied) toastSuccess(i18n.t('notice.linkCopied'));
  else toastWarning(i18n.t('subscription.copyFailed'));
  return copied;
}

/**
 * A button that copies the subscription link. The link is fetched as the button appears, so that the click copies at
 * once (browsers allow clipboard writes only close to the click); while it is fetched again (after a reset) the button
 * waits, so that it never copies a link that no longer works.
 */
export function CopyLinkButton({ testId = 'copy-link', ...props }: ButtonProps & { testId?: string }) {
  const { t } = useTranslation();
  const link = useSubscribeUrl();
  return (
    <Button
      leftSection={<CopyIcon size={16} />}
      loading={link.isFetching}
      onClick={() => {
        if (link.data) void copyLink(link.data);
        else void link.refetch();
      }}
      data-testid={testId}
      {...props}
    >
      {t('subscription.copy')}
    </Button>
  );
}
