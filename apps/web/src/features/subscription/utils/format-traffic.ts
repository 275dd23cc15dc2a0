import type { RequestLanguage } from '@mutenet/contract';
import { formatNumber } from '../../../lib/numbers';

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

/**
 * Bytes as the dashboard shows them: in the largest unit (B, KB, MB, GB, TB, steps of 1024) that keeps the number at
 * 1 or more, with up to two decimals in the given language (`100 GB`, `1.5 KB`, `1,5 KB` in Portuguese).
 */
export function formatTraffic(bytes: number, language: RequestLanguage = 'en'): string {
  const value = Math.max(0, Number.isFinite(bytes) ? bytes : 0);
  let unit = 0;
  let scaled = value;
  while (scaled >= 1024 && unit < UNITS.length - 1) {
    scaled /= 1024;
    unit += 1;
  }
  const number = formatNumber(scaled, language, { maximumFractionDigits: unit === 0 ? 0 : 2 });
  return `${number} ${UNITS[unit]}`;
}
