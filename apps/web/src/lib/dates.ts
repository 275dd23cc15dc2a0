import dayjs from 'dayjs';

/** Spec section 9: dates and times as YYYY/MM/DD HH:mm:ss, in the browser's time zone. */
export const DATE_TIME_FORMAT = 'YYYY/MM/DD HH:mm:ss';

export function formatDateTime(epochMs: number): string {
  return dayjs(epochMs).format(DATE_TIME_FORMAT);
}
