import '@mantine/core/styles/Alert.css';
import { Alert } from '@mantine/core';
import type { ReactNode } from 'react';
import { AlertIcon } from './icons';

/** Mantine's light orange alert writes its text in orange, below AA contrast: this one keeps the text colour. */
const STYLES = { title: { color: 'var(--mantine-color-text)' }, message: { color: 'var(--mantine-color-text)' } };

/** A warning announced when it appears (role alert), with an icon and an optional title. */
export function WarningAlert({ title, children, testId }: { title?: string; children: ReactNode; testId?: string }) {
  return (
    <Alert color="orange" variant="light" icon={<AlertIcon />} title={title} styles={STYLES} data-testid={testId}>
      {children}
    </Alert>
  );
}
