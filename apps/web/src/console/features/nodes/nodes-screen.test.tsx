import type { AdminNode } from '@mutenet/contract';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { envelope, stubFetch } from '../../../testing/fetch-stub';
import { renderConsole, sessionOf } from '../../testing';

const WRITER = sessionOf({ role: 'manager', permissions: ['nodes.read', 'nodes.write'] });

function node(overrides: Partial<AdminNode>): AdminNode {
  return {
    id: 1,
    names: { en: 'Tokyo 1', 'pt-BR': 'Tóquio 1', 'zh-Hans': '东京 1' },
    protocol: 'trojan',
    host: 'tokyo.example.com',
    port: 443,
    rate: 1,
    labels: ['fast'],
    visible: true,
    sort: 0,
    settings: { network: 'tcp', tls: 'tls' },
    online: true,
    onlineUsers: 3,
    todayUpload: 1536,
    todayDownload: 5 * 1024 ** 3,
    ...overrides,
  };
}

const withToken = (added: AdminNode, token: string) => ({
  node: added,
  token,
  v2bx: { ApiHost: 'https://panel.example.com', ApiKey: token, NodeID: added.id },
  xrayr: { ApiConfig: { ApiKey: token, NodeID: added.id } },
});

/** The labels of the protocol settings the form shows, sorted. */
function fieldLabels(form: HTMLElement) {
  const settings = within(within(form).getByRole('group', { name: 'Protocol settings' }));
  return [...settings.queryAllByRole('combobox'), ...settings.queryAllByRole('textbox')]
    .map((input) => document.querySelector(`label[for="${input.id}"]`)?.textContent?.replace(/\s*\*$/, ''))
    .sort();
}

describe('the nodes screen', () => {
  it('lists nodes with their status, users online and today’s traffic; readers see no actions', async () => {
    stubFetch()
      .on('GET', '/api/session', envelope(sessionOf({ role: 'support', permissions: ['nodes.read'] })))
      .on('GET', '/api/nodes', envelope({ nodes: [node({}), node({ id: 2, online: false, visible: false })] }));
    await renderConsole({ path: '/nodes' });
    const table = await screen.findByRole('table', { name: 'Nodes' });
    const [first, second] = within(table).getAllByRole('row').slice(1);
    expect(first).toHaveTextContent('Online');
    expect(first).toHaveTextContent('3');
    expect(first).toHaveTextContent('↑ 1.5 KB ↓ 5 GB');
    expect(second).toHaveTextContent('Offline');
    expect(second).toHaveTextContent('Hidden');
    expect(screen.queryByRole('button', { name: 'Add node' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
  });

  it('shows only the settings the chosen protocol, transport and TLS take, and the new token once', async () => {
    const nodes: AdminNode[] = [];
    const network = stubFetch()
      .on('GET', '/api/session', envelope(WRITER))
      .on('GET', '/api/nodes', () => envelope({ nodes }))
      .on('POST', '/api/nodes', (request) => {
        const body = JSON.parse(request.bodyText);
        const added = node({ ...body, id: 7, online: false, onlineUsers: 0, todayUpload: 0, todayDownload: 0 });
        nodes.push(added);
        return envelope(withToken(added, 'tok-once-123'));
      });
    const { user } = await renderConsole({ path: '/nodes' });
    await user.click(await screen.findByRole('button', { name: 'Add node' }));
    const form = await screen.findByRole('form', { name: 'New node' });

    // VLESS over TCP without TLS: its transport and TLS; with TLS, SNI, fingerprint and flow too.
    expect(fieldLabels(form)).toEqual(['TLS', 'Transport']);
    await user.selectOptions(within(form).getByLabelText('TLS'), 'tls');
    expect(fieldLabels(form)).toEqual(['Fingerprint', 'Flow', 'SNI (server name)', 'TLS', 'Transport']);
    await user.selectOptions(within(form).getByLabelText('TLS'), 'reality');
    expect(fieldLabels(form)).toEqual(
      expect.arrayContaining(['REALITY private key', 'REALITY public key', 'REALITY short ID']),
    );
    await user.selectOptions(within(form).getByLabelText('Transport'), 'ws');
    expect(fieldLabels(form)).toContain('Path');
    expect(fieldLabels(form)).not.toContain('Flow');
    // Shadowsocks takes its cipher alone.
    await user.selectOptions(within(form).getByLabelText('Protocol'), 'shadowsocks');
    expect(fieldLabels(form)).toEqual(['Cipher']);
    await user.selectOptions(within(form).getByLabelText('Protocol'), 'hysteria2');
    expect(fieldLabels(form)).toEqual(['Obfuscation password', 'SNI (server name)']);
    await user.selectOptions(within(form).getByLabelText('Protocol'), 'shadowsocks');

    await user.type(within(form).getByLabelText(/^Name \(English\)/), 'Lisbon');
    await user.type(within(form).getByLabelText(/^Host/), 'lis.example.com');
    await user.clear(within(form).getByLabelText(/^Port/));
    await user.type(within(form).getByLabelText(/^Port/), '8388');
    await user.type(within(form).getByLabelText(/^Labels/), 'eu, fast');
    await user.selectOptions(within(form).getByLabelText('Cipher'), 'aes-256-gcm');
    await user.click(within(form).getByRole('button', { name: 'Add node' }));

    const dialog = await screen.findByRole('dialog', { name: 'Token of Lisbon' });
    expect(within(dialog).getByText(/shown only this once/)).toBeInTheDocument();
    expect(within(dialog).getByTestId('node-token')).toHaveTextContent('tok-once-123');
    expect(within(dialog).getByTestId('v2bx-entry')).toHaveTextContent('"ApiKey": "tok-once-123"');
    expect(within(dialog).getByTestId('xrayr-entry')).toHaveTextContent('"NodeID": 7');
    // Only what shadowsocks takes was sent (the transport and SNI chosen for VLESS were left behind).
    expect(JSON.parse(network.to('/api/nodes', 'POST')[0]!.bodyText)).toEqual({
      names: { en: 'Lisbon', 'pt-BR': '', 'zh-Hans': '' },
      protocol: 'shadowsocks',
      host: 'lis.example.com',
      port: 8388,
      rate: 1,
      labels: ['eu', 'fast'],
      visible: true,
      settings: { cipher: 'aes-256-gcm' },
    });
    await user.click(within(dialog).getAllByRole('button', { name: 'Close' }).at(-1)!);
    expect(await screen.findByRole('row', { name: /Lisbon/ })).toBeInTheDocument();
    expect(screen.queryByText('tok-once-123')).not.toBeInTheDocument();
    // Many choices typed one by one: slow on a busy machine.
  }, 30_000);

  it('rotates a token and removes a node only after a confirmation; hides; names a refused setting', async () => {
    const network = stubFetch()
      .on('GET', '/api/session', envelope(WRITER))
      .on('GET', '/api/nodes', envelope({ nodes: [node({})] }))
      .on('POST', '/api/nodes/1/token', envelope(withToken(node({}), 'tok-new-456')))
      .on('POST', '/api/nodes/1/hide', envelope(node({ visible: false })))
      .on('DELETE', '/api/nodes/1', envelope({ id: 1 }));
    const { user } = await renderConsole({ path: '/nodes' });
    const actions = await screen.findByRole('group', { name: 'Actions for Tokyo 1' });

    await user.click(within(actions).getByRole('button', { name: 'New token' }));
    const confirm = await screen.findByRole('dialog', { name: 'New token for Tokyo 1' });
    expect(confirm).toHaveTextContent('stops working at once');
    expect(network.to('/api/nodes/1/token', 'POST')).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'New token' }));
    const shown = await screen.findByRole('dialog', { name: 'Token of Tokyo 1' });
    expect(within(shown).getByTestId('node-token')).toHaveTextContent('tok-new-456');
    await user.click(within(shown).getAllByRole('button', { name: 'Close' }).at(-1)!);

    await user.click(within(actions).getByRole('button', { name: 'Hide' }));
    expect(network.to('/api/nodes/1/hide', 'POST')).toHaveLength(1);

    await user.click(within(actions).getByRole('button', { name: 'Remove' }));
    const removal = await screen.findByRole('dialog', { name: 'Remove Tokyo 1' });
    await user.click(within(removal).getAllByRole('button', { name: 'Cancel' }).at(-1)!);
    expect(network.to('/api/nodes/1', 'DELETE')).toHaveLength(0);
    await user.click(within(actions).getByRole('button', { name: 'Remove' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Remove Tokyo 1' })).getByRole('button', { name: 'Remove' }),
    );
    expect(network.to('/api/nodes/1', 'DELETE')).toHaveLength(1);
  });

  it('edits a node and marks the setting the server refused', async () => {
    const network = stubFetch()
      .on('GET', '/api/session', envelope(WRITER))
      .on(
        'GET',
        '/api/nodes',
        envelope({
          nodes: [node({ protocol: 'vmess', settings: { network: 'tcp', tls: 'tls', sni: 'a.example.com' } })],
        }),
      )
      .on('PUT', '/api/nodes/1', envelope({ field: 'sni' }, { code: 6101, msg: 'A setting does not fit' }));
    const { user } = await renderConsole({ path: '/nodes' });
    const actions = await screen.findByRole('group', { name: 'Actions for Tokyo 1' });
    await user.click(within(actions).getByRole('button', { name: 'Edit' }));
    const form = await screen.findByRole('form', { name: 'Edit Tokyo 1' });
    expect(within(form).getByLabelText('SNI (server name)')).toHaveValue('a.example.com');
    expect(fieldLabels(form)).not.toContain('Flow');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('A setting does not fit');
    expect(within(form).getByLabelText('SNI (server name)')).toHaveAttribute('aria-invalid', 'true');
    expect(JSON.parse(network.to('/api/nodes/1', 'PUT')[0]!.bodyText)).toMatchObject({
      protocol: 'vmess',
      settings: { network: 'tcp', tls: 'tls', sni: 'a.example.com' },
    });
  });
});
