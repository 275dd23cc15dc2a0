import { Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A screen that has only its heading so far. */
export function PlaceholderScreen({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {title}
      </Title>
      {children}
    </Stack>
  );
}
