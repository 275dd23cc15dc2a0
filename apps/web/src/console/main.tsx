import '@mantine/core/styles.css';
import './console.css';
import { QueryClient } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ALL_STRINGS } from './all-strings';
import { ConsoleApp } from './app';
import { startConsoleI18n } from './i18n';

const root = document.getElementById('root');
if (!root) throw new Error('console.html has no #root element');

const queryClient = new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } } });

void startConsoleI18n(ALL_STRINGS).then(() =>
  createRoot(root).render(
    <StrictMode>
      <ConsoleApp queryClient={queryClient} />
    </StrictMode>,
  ),
);
