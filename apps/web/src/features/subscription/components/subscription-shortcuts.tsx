import '@mantine/core/styles/Paper.css';
import '@mantine/core/styles/Title.css';
import '@mantine/core/styles/SimpleGrid.css';
import '@mantine/core/styles/ThemeIcon.css';
import { Paper, SimpleGrid, Stack, Text, ThemeIcon, Title, UnstyledButton } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { type ComponentType, lazy, type ReactNode, Suspense, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { BookIcon, QrCodeIcon, QuestionIcon, RefreshIcon } from '../../../components/ui/icons';

const loadQuickDialog = () => import('./quick-subscription-dialog');
const QuickSubscriptionDialog = lazy(loadQuickDialog);

export type SubscriptionShortcutsProps = {
  /** View tutorial and the quick subscription's usage button. */
  tutorialHref: string;
  /** Renew subscription. */
  shopHref: string;
};

/**
 * The dashboard's four shortcut tiles (spec section 2): view tutorial, quick subscription (a dialog), renew
 * subscription, and encounter problems, which has no action and is shown as such.
 */
export function SubscriptionShortcuts({ tutorialHref, shopHref }: SubscriptionShortcutsProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const [quickOpened, quick] = useDisclosure(false);
  // The dialog (its QR code, the link's field) loads when the tile is first reached for, and stays once opened.
  const [quickWanted, setQuickWanted] = useState(false);
  if (quickOpened && !quickWanted) setQuickWanted(true);

  return (
    <section aria-labelledby={titleId}>
      <Title order={2} size="h4" mb="md" id={titleId}>
        {t('dashboard.shortcuts.title')}
      </Title>
      <SimpleGrid component="ul" cols={{ base: 2, md: 4 }} spacing="sm" p={0} m={0} style={{ listStyle: 'none' }}>
        <li>
          <UnstyledButton component={Link} to={tutorialHref} w="100%" h="100%" data-testid="shortcut-tutorial">
            <Tile
              icon={BookIcon}
              title={t('dashboard.shortcuts.tutorial')}
              hint={t('dashboard.shortcuts.tutorialHint')}
            />
          </UnstyledButton>
        </li>
        <li>
          <UnstyledButton
            onClick={quick.open}
            onPointerEnter={() => void loadQuickDialog()}
            onFocus={() => void loadQuickDialog()}
            w="100%"
            h="100%"
            aria-haspopup="dialog"
            data-testid="shortcut-quick"
          >
            <Tile icon={QrCodeIcon} title={t('dashboard.shortcuts.quick')} hint={t('dashboard.shortcuts.quickHint')} />
          </UnstyledButton>
        </li>
        <li>
          <UnstyledButton component={Link} to={shopHref} w="100%" h="100%" data-testid="shortcut-renew">
            <Tile icon={RefreshIcon} title={t('dashboard.shortcuts.renew')} hint={t('dashboard.shortcuts.renewHint')} />
          </UnstyledButton>
        </li>
        {/* No action (spec section 2): plain text, neither focusable nor pretending to be a control. */}
        <li data-testid="shortcut-problems">
          <Tile
            icon={QuestionIcon}
            title={t('dashboard.shortcuts.problems')}
            hint={t('dashboard.shortcuts.problemsHint')}
            inactive
          />
        </li>
      </SimpleGrid>
      {quickWanted ? (
        <Suspense fallback={null}>
          <QuickSubscriptionDialog opened={quickOpened} onClose={quick.close} tutorialHref={tutorialHref} />
        </Suspense>
      ) : null}
    </section>
  );
}

function Tile({
  icon: Icon,
  title,
  hint,
  inactive = false,
}: {
  icon: ComponentType<{ size?: number }>;
  title: ReactNode;
  hint: ReactNode;
  inactive?: boolean;
}) {
  return (
    <Paper
      withBorder
      p="md"
      h="100%"
      bg={inactive ? 'var(--mantine-color-gray-0)' : undefined}
      style={inactive ? { borderStyle: 'dashed' } : undefined}
    >
      <Stack gap="xs">
        <ThemeIcon
          size={40}
          radius="md"
          variant="light"
          color={inactive ? 'gray' : 'blue'}
          c={inactive ? 'gray.7' : 'blue.9'}
        >
          <Icon size={22} />
        </ThemeIcon>
        <Text fw={600} c={inactive ? 'gray.7' : undefined}>
          {title}
        </Text>
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      </Stack>
    </Paper>
  );
}
