import { getSessionValue, SESSION_KEYS, setSessionValue } from '../../../lib/storage';

/** A short fingerprint of a notice's text (FNV-1a), so that a new notice shows even after an old one was closed. */
export function noticeFingerprint(content: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < content.length; index += 1) {
    hash ^= content.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return `${content.length}:${(hash >>> 0).toString(36)}`;
}

/** Closed in this tab's session (spec section 2: the dismissal lasts for the session). */
export function isNoticeDismissed(content: string): boolean {
  return getSessionValue(SESSION_KEYS.noticeDismissed) === noticeFingerprint(content);
}

export function dismissNotice(content: string): void {
  setSessionValue(SESSION_KEYS.noticeDismissed, noticeFingerprint(content));
}
