import { afterEach, describe, expect, it, vi } from 'vitest';
import { notifications, shownToasts, subscribeToasts } from './toasts';

afterEach(() => {
  notifications.clean();
  vi.useRealTimers();
});

describe('toasts', () => {
  it('shows at most three, a newer one pushing the oldest off', () => {
    for (const message of ['one', 'two', 'three', 'four']) notifications.show({ message, color: 'red.9' });
    expect(shownToasts().map((toast) => toast.message)).toEqual(['two', 'three', 'four']);
  });

  it('closes a toast after its time, 4 seconds unless told, and keeps one told to stay', () => {
    vi.useFakeTimers();
    notifications.show({ message: 'default', color: 'teal.9' });
    notifications.show({ message: 'short', color: 'teal.9', autoClose: 2500 });
    notifications.show({ message: 'stays', color: 'teal.9', autoClose: false });
    vi.advanceTimersByTime(2500);
    expect(shownToasts().map((toast) => toast.message)).toEqual(['default', 'stays']);
    vi.advanceTimersByTime(1500);
    expect(shownToasts().map((toast) => toast.message)).toEqual(['stays']);
  });

  it('tells its readers of each change, and closes one by its id', () => {
    const listener = vi.fn();
    const unsubscribe = subscribeToasts(listener);
    const id = notifications.show({ message: 'saved', color: 'teal.9' });
    notifications.hide(id);
    expect(shownToasts()).toEqual([]);
    expect(listener).toHaveBeenCalledTimes(2);
    unsubscribe();
    notifications.show({ message: 'unheard', color: 'teal.9' });
    expect(listener).toHaveBeenCalledTimes(2);
  });
});
