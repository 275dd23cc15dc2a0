import '@mantine/core/styles/ModalBase.css';
import '@mantine/core/styles/Overlay.css';
import '@mantine/core/styles/CloseButton.css';
import '@mantine/core/styles/Modal.css';
import { Box, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { QRCodeSVG } from 'qrcode.react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { BookIcon, CopyIcon } from '../../../components/ui/icons';
import { useOpenedAfterMount } from '../../../components/ui/opened-after-mount';
import { ScreenLoader } from '../../../components/ui/screen-loader';
import { useSubscribeUrl } from '../api/get-subscribe-url';
import { copyLink } from './copy-link-button';

export type QuickSubscriptionDialogProps = {
  opened: boolean;
  onClose: () => void;
  /** The usage button's target: the knowledge base. */
  tutorialHref: string;
};

/**
 * The dashboard's quick subscription (spec section 2): the link to copy, its QR code, and the way to the guides.
 * Loaded when the customer first opens it.
 */
export default function QuickSubscriptionDialog({ opened, onClose, tutorialHref }: QuickSubscriptionDialogProps) {
  const { t } = useTranslation();
  const link = useSubscribeUrl({ enabled: opened });

  return (
    <Modal.Root opened={useOpenedAfterMount(opened)} onClose={onClose} centered>
      <Modal.Overlay />
      <Modal.Content data-testid="quick-subscription">
        {/* Not a <header> landmark: inside the dialog it would be a second banner of the page. */}
        <Modal.Header role="none">
          <Modal.Title fw={700}>{t('subscription.quickTitle')}</Modal.Title>
          <Modal.CloseButton aria-label={t('common.close')} />
        </Modal.Header>
        <Modal.Body>
          {link.isPending ? (
            <ScreenLoader />
          ) : link.isError ? (
            <Stack align="flex-start" gap="sm">
              <Text>{t('subscription.linkLoadFailed')}</Text>
              <Button variant="default" onClick={() => void link.refetch()}>
                {t('common.retry')}
              </Button>
            </Stack>
          ) : (
            <Stack gap="md">
              <TextInput
                label={t('subscription.link')}
                value={link.data}
                readOnly
                onFocus={(event) => event.currentTarget.select()}
                data-testid="subscription-link"
              />
              <Button
                leftSection={<CopyIcon size={16} />}
                onClick={() => void copyLink(link.data)}
                data-testid="copy-link"
              >
                {t('subscription.copy')}
              </Button>
              <Stack gap="xs" align="center">
                <Box p="xs" bg="white" style={{ lineHeight: 0 }}>
                  <QRCodeSVG
                    value={link.data}
                    size={200}
                    marginSize={2}
                    role="img"
                    aria-label={t('subscription.qrLabel')}
                    title={t('subscription.qrLabel')}
                    data-testid="subscription-qr"
                  />
                </Box>
                <Text size="sm" ta="center">
                  {t('subscription.qrHint')}
                </Text>
              </Stack>
              <Group justify="flex-end">
                <Button
                  component={Link}
                  to={tutorialHref}
                  variant="default"
                  leftSection={<BookIcon size={16} />}
                  onClick={onClose}
                  data-testid="quick-usage"
                >
                  {t('subscription.usage')}
                </Button>
              </Group>
            </Stack>
          )}
        </Modal.Body>
      </Modal.Content>
    </Modal.Root>
  );
}
