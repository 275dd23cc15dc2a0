import type { Node } from '@mutenet/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { setLanguage } from '../../../i18n/i18n';
import { envelope, type FetchStub, stubFetch } from '../../../testing/fetch-stub';
import { makeNode } from '../../../testing/fixtures';
import { renderWithProviders } from '../../../testing/render';
import { NodeTable, nodeTags } from './node-table';

let net: FetchStub;

beforeEach(() => {
  net = stubFetch();
});

function serveNodes(nodes: Node[]) {
  net.on('GET', '/mutenet/user/nodes', envelope(nodes));
}

const TOKYO = makeNode({ name: 'Tokyo', mag: 1.5, label: 'fast, stream', status: 'online' });
const PARIS = makeNode({ name: 'Paris', mag: 1, label: '', status: 'offline' });

function rowOf(name: string) {
  const header = screen.getByRole('rowheader', { name });
  return within(header.closest('tr') as HTMLElement);
}

describe('NodeTable', () => {
  it('shows each node: name, status in words, multiplier with ×, and tags', async () => {
    serveNodes([TOKYO, PARIS]);
    renderWithProviders(<NodeTable compact={false} shopHref="/shop" />);
    const table = await screen.findByRole('table', { name: 'Nodes' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Name', 'Status', 'Rate', 'Labels']);

    const tokyo = rowOf('Tokyo');
    expect(tokyo.getByTestId('node-status')).toHaveTextContent('Online');
    expect(tokyo.getByTestId('node-status')).toHaveAttribute('data-status', 'online');
    expect(tokyo.getByTestId('node-mag')).toHaveTextContent('1.5×');
    expect(tokyo.getAllByTestId('node-tag').map((tag) => tag.textContent)).toEqual(['fast', 'stream']);

    const paris = rowOf('Paris');
    expect(paris.getByTestId('node-status')).toHaveTextContent('Offline');
    expect(paris.getByTestId('node-status')).toHaveAttribute('data-status', 'offline');
    expect(paris.getByTestId('node-mag')).toHaveTextContent('1×');
    expect(paris.queryAllByTestId('node-tag')).toHaveLength(0);

    expect(screen.getByTestId('nodes-note')).toHaveTextContent(
      'A node is shown online when it has reported within the last five minutes. Traffic used on a node is multiplied by its rate.',
    );
  });

  it('leaves the tags out on mobile', async () => {
    serveNodes([TOKYO]);
    renderWithProviders(<NodeTable compact shopHref="/shop" />);
    const table = await screen.findByRole('table', { name: 'Nodes' });
    expect(within(table).queryByRole('columnheader', { name: 'Labels' })).not.toBeInTheDocument();
    expect(screen.queryByTestId('node-tag')).not.toBeInTheDocument();
    expect(rowOf('Tokyo').getByTestId('node-mag')).toHaveTextContent('1.5×');
  });

  it('shows a loading state until the list arrives', async () => {
    let answer: (response: Response) => void = () => {};
    net.on('GET', '/mutenet/user/nodes', () => new Promise<Response>((resolve) => (answer = resolve)));
    renderWithProviders(<NodeTable compact={false} shopHref="/shop" />);
    expect(screen.getByRole('status')).toContainElement(screen.getByLabelText('Loading…'));
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    await waitFor(() => expect(net.to('/mutenet/user/nodes')).toHaveLength(1));
    answer(envelope([TOKYO]));
    expect(await screen.findByRole('table', { name: 'Nodes' })).toBeInTheDocument();
    expect(screen.queryByTestId('nodes-loading')).not.toBeInTheDocument();
  });

  it('says there are no nodes and leads to the shop', async () => {
    serveNodes([]);
    renderWithProviders(<NodeTable compact={false} shopHref="/shop?from=mobile" />);
    expect(await screen.findByTestId('nodes-empty')).toHaveTextContent('No nodes are available at the moment.');
    expect(screen.getByRole('link', { name: 'Order a plan' })).toHaveAttribute('href', '/shop?from=mobile');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.getByTestId('nodes-note')).toBeInTheDocument();
  });

  it('writes the multiplier and the words in the language on screen', async () => {
    await setLanguage('por');
    serveNodes([TOKYO, PARIS]);
    renderWithProviders(<NodeTable compact={false} shopHref="/shop" />);
    await screen.findByRole('table', { name: 'Nós' });
    expect(rowOf('Tokyo').getByTestId('node-mag')).toHaveTextContent('1,5×');
    expect(rowOf('Paris').getByTestId('node-status')).toHaveTextContent('Offline');
    expect(screen.getByRole('columnheader', { name: 'Taxa' })).toBeInTheDocument();
  });
});

describe('nodeTags', () => {
  it('splits the comma-separated label, trimmed, without empty tags', () => {
    expect(nodeTags('fast, stream,,  gaming ')).toEqual(['fast', 'stream', 'gaming']);
    expect(nodeTags('')).toEqual([]);
  });
});
