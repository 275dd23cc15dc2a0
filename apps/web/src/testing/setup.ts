import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { i18n, startI18n } from '../i18n/i18n';
import { setUnauthorizedHandler } from '../lib/api-client';
import { notifications } from '../lib/toasts';
import { shimHappyDomForDomPurify } from './happy-dom-shims';

shimHappyDomForDomPurify();
await startI18n('en');

// Screens load on demand and the suites run side by side on few cores: give findBy/waitFor some room.
configure({ asyncUtilTimeout: 4000 });

beforeEach(async () => {
  localStorage.clear();
  sessionStorage.clear();
  await i18n.changeLanguage('en');
});

afterEach(() => {
  cleanup();
  notifications.clean();
  setUnauthorizedHandler(null);
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
});
