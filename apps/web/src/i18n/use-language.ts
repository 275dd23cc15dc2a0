import { type Language, MESSAGES, type MessageKey, REQUEST_LANGUAGE } from '@mutenet/contract';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage, setLanguage } from './i18n';

/** The language on screen; re-renders when it changes. */
export function useLanguage(): { language: Language; setLanguage: (language: Language) => Promise<void> } {
  // Subscribes to language changes.
  useTranslation();
  return { language: currentLanguage(), setLanguage };
}

/** Shows a contract message (an error key's text, say) in the language on screen. */
export function useMessage(): (key: MessageKey) => string {
  const { language } = useLanguage();
  return useCallback((key: MessageKey) => MESSAGES[key][REQUEST_LANGUAGE[language]], [language]);
}
