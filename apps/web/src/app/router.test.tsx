import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { i18n } from '../i18n/i18n';
import { createQueryClient } from '../lib/react-query';
import { getSessionValue, getToken, SESSION_KEYS, setSessionValue, setToken } from '../lib/storage';
import { envelope, type FetchStub, json, stubFetch } from '../testing/fetch-stub';
import { LocationProbe, TestAppProviders } from '../testing/render';
import { AppRoutes, createRoutes } from './router';

const CONFIG = {
  version: '2.4.1',
  websiteUrl: 'https://mutenet.example/',
  downloads: {
    officialAndroid: 'https://d/1',
    v2rayNG: 'https://d/2',
    clashWindows: 'https://d/3',
    shadowrocket: 'https://d/4',
    foxray: 'https://d/5',
  },
};

let net: FetchStub;

// The screens load on demand; loading their code once up front keeps the first test of each within its time-outs.
beforeAll(async () => {
  await Promise.all([
    import('./routes/app-layout'),
    import('./routes/placeholder'),
    import('./routes/person'),
    import('./routes/dashboard'),
    import('./routes/knowledge-base'),
    import('./routes/node-status'),
    import('./routes/register'),
    import('./routes/forget-passwords'),
    import('./routes/show-docx'),
  ]);
}, 30_000);

beforeEach(() => {
  net = stubFetch().serveCaptchas().on('GET', '/person/config.json', json(CONFIG));
});

function renderAt(path: string) {
  const user = userEvent.setup();
  const queryClient = createQueryClient();
  const utils = render(
    <TestAppProviders queryClient={queryClient}>
      <MemoryRouter initialEntries={[path]}>
        <AppRoutes routes={createRoutes()} />
        <LocationProbe />
      </MemoryRouter>
    </TestAppProviders>,
  );
  const location = () => utils.getByTestId('location').textContent;
  return { ...utils, user, location };
}

/** happy-dom's own API: media queries (Mantine's hiddenFrom / visibleFrom) follow the viewport. */
function setViewportWidth(width: number) {
  (
    window as unknown as { happyDOM: { setViewport(size: { width: number; height: number }): void } }
  ).happyDOM.setViewport({ width, height: 800 });
}

afterEach(() => setViewportWidth(1024));

function signIn() {
  setToken('tok');
  setSessionValue(SESSION_KEYS.email, 'ana@example.com');
}

describe('route guard', () => {
  it.each([
    '/home',
    '/pannel',
    '/pannel/mobile/en',
    '/document',
    '/shop',
    '/state',
    '/orders',
    '/invite',
    '/help',
    '/flow',
    '/person',
    '/shopConfigure/e30=',
    '/status/123',
    '/anything',
  ])('sends %s to /login without a token', async (path) => {
    const { location } = renderAt(path);
    await waitFor(() => expect(location()).toBe('/login'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Log in' })).toBeInTheDocument();
  });

  it('redirects / to /login', async () => {
    const { location } = renderAt('/');
    await waitFor(() => expect(location()).toBe('/login'));
  });

  it.each([
    ['/login', 'Log in'],
    ['/register', 'Create an account'],
    ['/forgetPasswords', 'Reset password'],
    ['/showDocx', 'User licence agreement'],
  ])('lets a visitor open %s', async (path, heading) => {
    const { location } = renderAt(path);
    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeInTheDocument();
    expect(location()).toBe(path);
  });

  it('treats an empty stored token as no token', async () => {
    localStorage.setItem('token', '');
    const { location } = renderAt('/pannel');
    await waitFor(() => expect(location()).toBe('/login'));
  });
});

describe('the public screens’ picture code', () => {
  it('shows the picture the login screen asked for as it opened, asking once', async () => {
    renderAt('/login');
    expect(await screen.findByTestId('captcha-picture')).toHaveAttribute('data-img-id', 'captcha-1');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(net.to('/mutenet/verify/code/img')).toHaveLength(1);
  });

  it('asks for no picture while a stored session is checked', async () => {
    setToken('tok');
    net.on('POST', '/mutenet/login', () => new Promise<Response>(() => {}));
    renderAt('/login');
    await waitFor(() => expect(net.to('/mutenet/login')).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(net.to('/mutenet/verify/code/img')).toHaveLength(0);
  });
});

describe('signed-in routes', () => {
  beforeEach(signIn);

  it('sends /home to the dashboard', async () => {
    const { location } = renderAt('/home');
    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeInTheDocument();
    expect(location()).toBe('/pannel');
  });

  it.each([
    ['/pannel/desktop/en', 'Dashboard'],
    ['/document', 'Knowledge base'],
    ['/shop', 'Purchase subscription'],
    ['/state', 'Node status'],
    ['/orders', 'My order'],
    ['/invite', 'Invite friends'],
    ['/help', 'Help'],
    ['/flow', 'Traffic details'],
    ['/person', 'User centre'],
    ['/shopConfigure/eyJwZE5hbWUiOiJQcm8ifQ==', 'Configure order'],
    ['/status/2023112400001', 'Order details'],
  ])('renders %s', async (path, heading) => {
    renderAt(path);
    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeInTheDocument();
    expect(document.title).toBe(`${heading} · Mutenet`);
  });

  it('asks for a screen’s data as its route opens, and no more as it renders again, even after an error', async () => {
    net
      .on('GET', '/mutenet/notice', envelope({ content: '' }))
      .on('GET', '/mutenet/user/package/stat', new Response('', { status: 503 }));
    const { location } = renderAt('/home');
    expect(await screen.findByText('Your subscription could not be loaded.')).toBeInTheDocument();
    expect(location()).toBe('/pannel');
    // Once as the route opened: the screen, mounting after the failed answer, shows it rather than asking again.
    expect(net.to('/mutenet/notice')).toHaveLength(1);
    expect(net.to('/mutenet/user/package/stat')).toHaveLength(1);
    // The renders that follow (the redirect, the error's toast, the answers) ask nothing again.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(net.to('/mutenet/notice')).toHaveLength(1);
    expect(net.to('/mutenet/user/package/stat')).toHaveLength(1);
  });

  it('asks for a screen’s data and its shell’s once each as the route opens', async () => {
    net.on('GET', '/mutenet/notice', envelope({ content: '<p>Maintenance on Sunday</p>' }));
    net.on('POST', '/mutenet/login', envelope({ user: 'ana@example.com' }));
    renderAt('/pannel');
    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeInTheDocument();
    expect(await screen.findByText('Maintenance on Sunday')).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const asked = net.requests.map((request) => request.path).sort();
    expect(asked).toEqual(['/mutenet/login', '/mutenet/notice', '/mutenet/user/package/stat', '/person/config.json']);
  });

  it('sends an unknown path to the dashboard', async () => {
    const { location } = renderAt('/nowhere');
    await waitFor(() => expect(location()).toBe('/pannel'));
  });

  it('shows the header, the side menu with the active entry, and the version', async () => {
    renderAt('/orders');
    const nav = await screen.findByRole('navigation', { name: 'Main menu' });
    const active = within(nav).getByRole('link', { name: 'My order' });
    expect(active).toHaveAttribute('aria-current', 'page');
    expect(within(nav).getByRole('link', { name: 'Dashboard' })).not.toHaveAttribute('aria-current');
    expect(within(nav).getByRole('group', { name: 'Finance' })).toContainElement(active);
    expect(getSessionValue(SESSION_KEYS.activeName)).toBe('myOrder');
    expect(getSessionValue(SESSION_KEYS.activePath)).toBe('/orders');
    expect(await within(nav).findByText('Version 2.4.1')).toBeInTheDocument();

    const header = screen.getByRole('banner');
    expect(within(header).getByTestId('page-title')).toHaveTextContent('My order');
    expect(within(header).getByRole('link', { name: 'Official website' })).toHaveAttribute(
      'href',
      'https://mutenet.example/',
    );
    expect(within(header).getByRole('button', { name: 'Account menu: ana@example.com' })).toBeInTheDocument();
  });

  it('keeps the last menu entry lit on screens outside the menu', async () => {
    setSessionValue(SESSION_KEYS.activeName, 'purchase');
    renderAt('/shopConfigure/e30=');
    const nav = await screen.findByRole('navigation', { name: 'Main menu' });
    expect(within(nav).getByRole('link', { name: 'Purchase subscription' })).toHaveAttribute('aria-current', 'page');
  });

  it('moves between screens from the side menu', async () => {
    const { user, location } = renderAt('/pannel');
    const nav = await screen.findByRole('navigation', { name: 'Main menu' });
    await user.click(within(nav).getByRole('link', { name: 'Node status' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Node status' })).toBeInTheDocument();
    expect(location()).toBe('/state');
    expect(getSessionValue(SESSION_KEYS.activePath)).toBe('/state');
  });

  it('opens the side menu in a drawer from the burger button (phones)', async () => {
    setViewportWidth(375);
    const { user, location } = renderAt('/pannel');
    const burger = await screen.findByRole('button', { name: 'Open menu' });
    expect(burger).toHaveAttribute('aria-expanded', 'false');
    await user.click(burger);
    const drawer = await screen.findByRole('dialog', { name: 'Main menu' });
    expect(within(drawer).getByRole('link', { name: 'Official website' })).toHaveAttribute(
      'href',
      'https://mutenet.example/',
    );
    await user.click(within(drawer).getByRole('link', { name: 'User centre' }));
    await waitFor(() => expect(location()).toBe('/person'));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('signs out from the user menu: revokes the token, clears storage, goes to /login', async () => {
    net.on('POST', '/mutenet/logout', envelope(null));
    net.on('POST', '/mutenet/login', envelope({ user: 'ana@example.com' }));
    const { user, location } = renderAt('/pannel');
    // The one session check of the app's opening, before sign-out; none may follow it.
    await waitFor(() => expect(net.to('/mutenet/login')).toHaveLength(1));
    await user.click(await screen.findByRole('button', { name: 'Account menu: ana@example.com' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Sign out' }));

    await waitFor(() => expect(location()).toBe('/login'));
    expect(net.to('/mutenet/logout')[0]?.headers.get('authorization')).toBe('tok');
    expect(getToken()).toBeNull();
    expect(getSessionValue(SESSION_KEYS.email)).toBeNull();
    expect(await screen.findByRole('heading', { level: 1, name: 'Log in' })).toBeInTheDocument();
    expect(net.to('/mutenet/login')).toHaveLength(1);
    expect(screen.queryByText('Login expired')).not.toBeInTheDocument();
  });

  it('checks the session once when the app opens, even with the email in this tab', async () => {
    net.on('POST', '/mutenet/login', envelope({ user: 'ana@example.com' }));
    renderAt('/pannel');
    await waitFor(() => expect(net.to('/mutenet/login')).toHaveLength(1));
    const [check] = net.to('/mutenet/login');
    expect(check?.headers.get('authorization')).toBe('tok');
    expect(check?.bodyText).toBe('');
  });

  it('opens the user centre from the user menu', async () => {
    const { user, location } = renderAt('/pannel');
    await user.click(await screen.findByRole('button', { name: 'Account menu: ana@example.com' }));
    await user.click(await screen.findByRole('menuitem', { name: 'User centre' }));
    await waitFor(() => expect(location()).toBe('/person'));
    expect(await screen.findByRole('heading', { level: 2, name: 'Change password' })).toBeInTheDocument();
  });

  it('asks the server for the email when this tab does not have it, and goes to /login on 401', async () => {
    sessionStorage.clear();
    net.on('POST', '/mutenet/login', new Response('', { status: 401 }));
    const { location } = renderAt('/pannel');
    await waitFor(() => expect(location()).toBe('/login'));
    expect(getToken()).toBeNull();
    expect(await screen.findByText('Login expired')).toBeInTheDocument();
    expect(net.to('/mutenet/login')).toHaveLength(1);
  });

  it('fills in the email from the session check', async () => {
    sessionStorage.clear();
    net.on('POST', '/mutenet/login', envelope({ user: 'bob@example.com' }));
    renderAt('/pannel');
    expect(await screen.findByRole('button', { name: 'Account menu: bob@example.com' })).toBeInTheDocument();
  });
});

describe('mobile mode and the language in the URL', () => {
  beforeEach(async () => {
    signIn();
    await i18n.changeLanguage('por');
  });

  it('hides the header and the side menu and takes the language from the path', async () => {
    renderAt('/orders/mobile/en');
    expect(await screen.findByRole('heading', { level: 1, name: 'My order' })).toBeInTheDocument();
    expect(screen.queryByRole('banner')).not.toBeInTheDocument();
    expect(screen.queryByRole('navigation')).not.toBeInTheDocument();
    expect(document.documentElement.lang).toBe('en');
    expect(getSessionValue(SESSION_KEYS.language)).toBe('en');
  });

  it('leaves a language picked afterwards as it is, while the URL stays', async () => {
    renderAt('/orders/mobile/en');
    expect(await screen.findByRole('heading', { level: 1, name: 'My order' })).toBeInTheDocument();
    await act(() => i18n.changeLanguage('por'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Meus pedidos' })).toBeInTheDocument();
  });

  it('does the same from the query, with a request value as the language', async () => {
    renderAt('/pannel?from=mobile&lang=zh-Hans');
    expect(await screen.findByRole('heading', { level: 1, name: '仪表盘' })).toBeInTheDocument();
    expect(screen.queryByRole('banner')).not.toBeInTheDocument();
    expect(document.documentElement.lang).toBe('zh-Hans');
  });

  it.each([
    ['/pannel/mobile/en', 'Dashboard', 'en'],
    ['/pannel?from=mobile&lang=zh-Hans', '仪表盘', 'zh-Hans'],
    ['/shop/mobile/zh', '购买订阅', 'zh-Hans'],
    ['/shop?lang=en', 'Purchase subscription', 'en'],
  ])('sends every call of %s once, in the address’s language from the first', async (path, heading, language) => {
    net.on('GET', '/mutenet/notice', envelope({ content: '' }));
    net.on('POST', '/mutenet/login', envelope({ user: 'ana@example.com' }));
    renderAt(path);
    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const calls = net.requests.map((request) => `${request.path} ${request.headers.get('accept-language')}`);
    const paths = net.requests.map((request) => request.path);
    expect(new Set(paths).size, calls.join('\n')).toBe(paths.length);
    expect(calls.filter((call) => !call.endsWith(` ${language}`))).toEqual([]);
    expect(paths).toContain(path.startsWith('/pannel') ? '/mutenet/user/package/stat' : '/mutenet/packages');
  });

  it('keeps the shell without from=mobile', async () => {
    renderAt('/shop?lang=en');
    expect(await screen.findByRole('heading', { level: 1, name: 'Purchase subscription' })).toBeInTheDocument();
    expect(screen.getByRole('banner')).toBeInTheDocument();
  });
});

describe('language', () => {
  it('defaults to Portuguese when nothing is stored', async () => {
    await i18n.changeLanguage('por');
    renderAt('/login');
    expect(await screen.findByRole('heading', { level: 1, name: 'Entrar' })).toBeInTheDocument();
    expect(document.documentElement.lang).toBe('pt-BR');
    await waitFor(() => expect(net.to('/mutenet/verify/code/img')[0]?.headers.get('accept-language')).toBe('pt-BR'));
  });

  it('switches from the dropdown, which offers English and Portuguese, and sends the new language', async () => {
    await i18n.changeLanguage('por');
    const { user } = renderAt('/login');
    const select = await screen.findByRole('combobox', { name: 'Idioma' });
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['English', 'Português']);

    await user.selectOptions(select, 'en');
    expect(await screen.findByRole('heading', { level: 1, name: 'Log in' })).toBeInTheDocument();
    expect(document.documentElement.lang).toBe('en');
    expect(getSessionValue(SESSION_KEYS.language)).toBe('en');

    await user.click(await screen.findByRole('button', { name: 'Picture verification code, select to get a new one' }));
    await waitFor(() => expect(net.to('/mutenet/verify/code/img')).toHaveLength(2));
    expect(net.to('/mutenet/verify/code/img')[1]?.headers.get('accept-language')).toBe('en');
  });
});
