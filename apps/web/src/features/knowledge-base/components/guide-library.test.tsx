import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { setLanguage } from '../../../i18n/i18n';
import { type FetchStub, json, stubFetch } from '../../../testing/fetch-stub';
import { RUNTIME_CONFIG } from '../../../testing/fixtures';
import { renderWithProviders } from '../../../testing/render';
import { GuideLibrary } from './guide-library';

let net: FetchStub;

beforeEach(() => {
  net = stubFetch().on('GET', '/person/config.json', json(RUNTIME_CONFIG));
});

function renderLibrary() {
  return renderWithProviders(
    <GuideLibrary shopHref="/shop" copyLinkButton={<button type="button">Copy the link, from the route</button>} />,
  );
}

const titles = () =>
  within(screen.getByRole('list', { name: /Guides|Guias|教程/ }))
    .queryAllByTestId('guide-title')
    .map((title) => title.textContent);

async function search(user: ReturnType<typeof renderLibrary>['user'], label: string, query: string) {
  const box = screen.getByRole('searchbox', { name: label });
  await user.clear(box);
  if (query) await user.type(box, query);
}

async function openGuide(user: ReturnType<typeof renderLibrary>['user'], title: string) {
  await user.click(screen.getByRole('button', { name: new RegExp(title.replace(/[()]/g, '\\$&')) }));
  return screen.findByRole('dialog', { name: title });
}

describe('GuideLibrary', () => {
  it('lists the five guides with their last-updated dates, in the order of the spec', () => {
    renderLibrary();
    expect(titles()).toEqual([
      'Official Android client',
      'v2rayNG (Android)',
      'Clash for Windows',
      'Shadowrocket (iOS)',
      'FoXray (iOS)',
    ]);
    expect(screen.getByTestId('guide-5')).toHaveTextContent('Last updated 2023/11/24');
    for (const id of [1, 2, 3, 4]) {
      expect(screen.getByTestId(`guide-${id}`)).toHaveTextContent('Last updated 2023/09/20');
    }
  });

  it('filters the titles in English, ignoring case', async () => {
    const { user } = renderLibrary();
    await search(user, 'Search guides', 'android');
    expect(titles()).toEqual(['Official Android client', 'v2rayNG (Android)']);
    await search(user, 'Search guides', 'IOS');
    expect(titles()).toEqual(['Shadowrocket (iOS)', 'FoXray (iOS)']);
    await search(user, 'Search guides', 'linux');
    expect(titles()).toEqual([]);
    expect(screen.getByRole('status')).toHaveTextContent('No guide matches your search.');
    await search(user, 'Search guides', '');
    expect(titles()).toHaveLength(5);
  });

  it('filters the titles in Portuguese, ignoring accents', async () => {
    await setLanguage('por');
    const { user } = renderLibrary();
    await search(user, 'Pesquisar guias', 'oficial');
    expect(titles()).toEqual(['Cliente oficial para Android']);
    await search(user, 'Pesquisar guias', 'clash para');
    expect(titles()).toEqual(['Clash para Windows']);
    expect(screen.getByTestId('guide-2')).toHaveTextContent('Atualizado em 2023/09/20');
  });

  it('filters the titles in Chinese', async () => {
    await setLanguage('zh');
    const { user } = renderLibrary();
    await search(user, '搜索教程', '安卓');
    expect(titles()).toEqual(['官方安卓客户端', 'v2rayNG（安卓）']);
    await search(user, '搜索教程', 'Windows');
    expect(titles()).toEqual(['Windows 版 Clash']);
    // An English title is not found in Chinese.
    await search(user, '搜索教程', 'Official');
    expect(titles()).toEqual([]);
  });

  it('opens a guide in a drawer: buy, copy the link, download the file, then drawn steps', async () => {
    const { user } = renderLibrary();
    const drawer = await openGuide(user, 'Clash for Windows');
    const steps = within(within(drawer).getByTestId('guide-steps')).getAllByTestId('guide-step');
    expect(steps).toHaveLength(6);
    expect(within(steps[0] as HTMLElement).getByRole('heading', { name: 'Buy a plan' })).toBeInTheDocument();
    expect(within(steps[0] as HTMLElement).getByRole('link', { name: 'Purchase subscription' })).toHaveAttribute(
      'href',
      '/shop',
    );
    expect(
      within(steps[1] as HTMLElement).getByRole('button', { name: 'Copy the link, from the route' }),
    ).toBeInTheDocument();
    const download = await within(steps[2] as HTMLElement).findByRole('link', { name: 'Download Clash for Windows' });
    expect(download).toHaveAttribute('href', RUNTIME_CONFIG.downloads.clashWindows);
    expect(download).toHaveAttribute('download');
    expect(download).not.toHaveAttribute('target');

    const pictures = within(drawer).getAllByRole('img');
    expect(pictures.map((picture) => picture.getAttribute('data-kind'))).toEqual([
      'desktop-import-url',
      'desktop-select-node',
      'desktop-system-proxy',
    ]);
    expect(pictures[0]).toHaveAccessibleName(/the link is pasted in a text box and the Download button/);
    expect(steps[3]).toHaveTextContent('go to Profiles, paste the link into the URL box and click Download');
    expect(drawer).toHaveTextContent('Last updated 2023/09/20');
    // No third-party pictures: every picture is one of our drawings.
    expect(drawer.querySelector('img')).toBeNull();
  });

  it('downloads v2rayNG as a file from its configured URL', async () => {
    const { user } = renderLibrary();
    const drawer = await openGuide(user, 'v2rayNG (Android)');
    const download = await within(drawer).findByRole('link', { name: 'Download v2rayNG' });
    expect(download).toHaveAttribute('href', RUNTIME_CONFIG.downloads.v2rayNG);
    expect(download).toHaveAttribute('download');
  });

  it.each([
    ['Shadowrocket (iOS)', 'Get Shadowrocket', RUNTIME_CONFIG.downloads.shadowrocket],
    ['FoXray (iOS)', 'Get FoXray', RUNTIME_CONFIG.downloads.foxray],
    ['Official Android client', 'Get the official app', RUNTIME_CONFIG.downloads.officialAndroid],
  ])('opens the download page of %s in a new tab', async (title, name, url) => {
    const { user } = renderLibrary();
    const drawer = await openGuide(user, title);
    const link = await within(drawer).findByRole('link', { name: `${name} (opens in a new tab)` });
    expect(link).toHaveAttribute('href', url);
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    expect(link).not.toHaveAttribute('download');
  });

  it('closes the drawer with Escape and speaks the language on screen', async () => {
    await setLanguage('por');
    const { user } = renderLibrary();
    const drawer = await openGuide(user, 'Clash para Windows');
    expect(within(drawer).getByRole('heading', { name: 'Compre um plano' })).toBeInTheDocument();
    expect(await within(drawer).findByRole('link', { name: 'Baixar Clash for Windows' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(net.to('/person/config.json')).toHaveLength(1);
  });
});
