import { i18n } from '../i18n/i18n';
import { notifications } from './toasts';

type Tone = 'error' | 'success' | 'warning';

const COLORS: Record<Tone, string> = { error: 'red.9', success: 'teal.9', warning: 'orange.9' };

export type ToastOptions = { title?: string; autoClose?: number };

function show(tone: Tone, message: string, options: ToastOptions = {}): void {
  notifications.show({
    color: COLORS[tone],
    title: options.title,
    message,
    ...(options.autoClose === undefined ? {} : { autoClose: options.autoClose }),
    'data-tone': tone,
  });
}

/** A server error (envelope code other than 0), titled "Mistake" as the spec asks. */
export function toastMistake(message: string, options?: ToastOptions): void {
  show('error', message, { title: i18n.t('toast.mistake'), ...options });
}

/** A transport error: no answer, or an HTTP status. */
export function toastError(message: string, options?: ToastOptions): void {
  show('error', message, { title: i18n.t('toast.error'), ...options });
}

export function toastSuccess(message: string, options?: ToastOptions): void {
  show('success', message, options);
}

export function toastWarning(message: string, options?: ToastOptions): void {
  show('warning', message, options);
}
