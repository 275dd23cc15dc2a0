import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { setLanguage } from '../../../i18n/i18n';
import { getSessionValue, SESSION_KEYS } from '../../../lib/storage';
import { envelope, type FetchStub, stubFetch } from '../../../testing/fetch-stub';
import { renderWithProviders } from '../../../testing/render';
import { NoticeBanner } from './notice-banner';

let net: FetchStub;

beforeEach(() => {
  net = stubFetch();
});

function serveNotice(content: string) {
  net.on('GET', '/mutenet/notice', envelope({ content }));
}

describe('NoticeBanner', () => {
  it('shows the notice as text in a region named Notice, without anything unsafe', async () => {
    serveNotice('<b>Maintenance</b> tonight <img src="x" onerror="alert(1)">');
    renderWithProviders(<NoticeBanner />);
    const region = await screen.findByRole('region', { name: 'Notice' });
    expect(within(region).getByTestId('notice-text')).toHaveTextContent('Maintenance tonight');
    expect(region.querySelector('b')).toHaveTextContent('Maintenance');
    expect(region.querySelector('[onerror]')).toBeNull();
    expect(within(region).getByRole('button', { name: 'Close the notice' })).toBeInTheDocument();
  });

  it('stays closed for the rest of the session once closed', async () => {
    serveNotice('<p>Hello</p>');
    const { user, unmount } = renderWithProviders(<NoticeBanner />);
    await user.click(await screen.findByRole('button', { name: 'Close the notice' }));
    expect(screen.queryByRole('region', { name: 'Notice' })).not.toBeInTheDocument();
    expect(getSessionValue(SESSION_KEYS.noticeDismissed)).toBeTruthy();
    unmount();

    // Back on the dashboard (or after a reload) in the same tab.
    renderWithProviders(<NoticeBanner />);
    await waitFor(() => expect(net.to('/mutenet/notice')).toHaveLength(2));
    expect(screen.queryByRole('region', { name: 'Notice' })).not.toBeInTheDocument();
  });

  it('shows a new notice even after the previous one was closed', async () => {
    serveNotice('<p>Old news</p>');
    const { user, unmount } = renderWithProviders(<NoticeBanner />);
    await user.click(await screen.findByRole('button', { name: 'Close the notice' }));
    unmount();

    serveNotice('<p>Fresh news</p>');
    renderWithProviders(<NoticeBanner />);
    expect(await screen.findByRole('region', { name: 'Notice' })).toHaveTextContent('Fresh news');
  });

  it('shows nothing when there is no notice', async () => {
    serveNotice('');
    const { container } = renderWithProviders(<NoticeBanner />);
    await waitFor(() => expect(net.to('/mutenet/notice')).toHaveLength(1));
    expect(screen.queryByRole('region')).not.toBeInTheDocument();
    expect(container.querySelector('[data-testid="notice-banner"]')).toBeNull();
  });

  it('asks for the notice in the language on screen', async () => {
    await setLanguage('zh');
    serveNotice('<p>维护</p>');
    renderWithProviders(<NoticeBanner />);
    expect(await screen.findByRole('region', { name: '公告' })).toHaveTextContent('维护');
    expect(net.to('/mutenet/notice')[0]?.headers.get('accept-language')).toBe('zh-Hans');
    expect(screen.getByRole('button', { name: '关闭公告' })).toBeInTheDocument();
  });
});
