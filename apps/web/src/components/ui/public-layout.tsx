import '@mantine/core/styles/Paper.css';
import '@mantine/core/styles/Title.css';
import { Box, Container, Group, Paper, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageSelect } from './language-select';

/** The frame of the screens a visitor sees before signing in: brand, language menu and one card. */
export function PublicLayout({
  title,
  subtitle,
  children,
  withLanguageMenu = true,
  width = 440,
}: {
  title: string;
  subtitle?: string;
  children: ReactNode;
  withLanguageMenu?: boolean;
  width?: number;
}) {
  const { t } = useTranslation();
  return (
    <Box mih="100dvh" bg="gray.0">
      <Group component="header" justify="space-between" px="md" py="sm" wrap="nowrap">
        <Text fw={700} size="lg" c="blue.9">
          {t('app.name')}
        </Text>
        {withLanguageMenu ? <LanguageSelect /> : null}
      </Group>
      <Container component="main" id="main" size={width} px="md" pb="xl" pt={{ base: 'md', sm: 60 }}>
        <Paper withBorder shadow="sm" p={{ base: 'md', sm: 'xl' }} radius="md">
          <Title order={1} size="h2" mb={subtitle ? 4 : 'lg'}>
            {title}
          </Title>
          {subtitle ? (
            <Text c="dimmed" mb="lg">
              {subtitle}
            </Text>
          ) : null}
          {children}
        </Paper>
      </Container>
    </Box>
  );
}
