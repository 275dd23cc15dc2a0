import type { RequestLanguage } from '@mutenet/contract';

/** "30 days" in each language; shared by the panel and the hosted checkout, as the order statuses are. */
const DAYS: Record<RequestLanguage, (days: number) => string> = {
  en: (days) => `${days} ${days === 1 ? 'day' : 'days'}`,
  'pt-BR': (days) => `${days} ${days === 1 ? 'dia' : 'dias'}`,
  'zh-Hans': (days) => `${days} 天`,
};

/** A duration, after the traffic it may follow: "30 days", "100 GB / 30 days". */
const DURATION_LABEL = /^(\d+(?:[.,]\d+)? ?[KMGT]B \/ )?(\d+) days?$/;

/**
 * A package's type (`pkgType`) in the customer's language. The catalogue keeps one label per package, written as
 * the demo catalogue and `admin package add` write it ("30 days", "100 GB / 30 days"); a label of that form is
 * shown in the language on screen (a traffic amount reads alike in all three), any other is the operator's own
 * words and shown as written.
 */
export function packageTypeText(label: string, language: RequestLanguage): string {
  const match = DURATION_LABEL.exec(label);
  if (!match) return label;
  const [, traffic = '', days] = match;
  return `${traffic}${DAYS[language](Number(days))}`;
}
