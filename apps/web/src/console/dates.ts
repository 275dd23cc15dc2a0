import { type Language, REQUEST_LANGUAGE } from '@mutenet/contract';

/**
 * A date and time in the screen's language, in the browser's time zone; `medium` time shows the seconds too (the
 * audit log, where the order of close changes matters).
 */
export function dateTimeFormat(language: Language, timeStyle: 'short' | 'medium' = 'short'): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat(REQUEST_LANGUAGE[language], { dateStyle: 'medium', timeStyle });
}
