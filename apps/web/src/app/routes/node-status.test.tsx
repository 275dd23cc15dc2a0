import { screen, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setToken } from '../../lib/storage';
import { envelope, stubFetch } from '../../testing/fetch-stub';
import { makeNode } from '../../testing/fixtures';
import { renderWithProviders } from '../../testing/render';
import NodeStatusRoute from './node-status';

beforeEach(() => {
  setToken('tok-1');
  stubFetch().on(
    'GET',
    '/mutenet/user/nodes',
    envelope([
      makeNode({ name: 'Tokyo', label: 'fast,stream' }),
      makeNode({ name: 'Paris', label: '', status: 'offline' }),
    ]),
  );
});

/** happy-dom's own API: media queries follow the viewport. */
function setViewportWidth(width: number) {
  (
    window as unknown as { happyDOM: { setViewport(size: { width: number; height: number }): void } }
  ).happyDOM.setViewport({ width, height: 800 });
}

afterEach(() => setViewportWidth(1024));

function renderAt(path: string) {
  return renderWithProviders(
    <Routes>
      <Route path="/state/:from?/:lang?" element={<NodeStatusRoute />} />
    </Routes>,
    { path },
  );
}

describe('node status screen', () => {
  it('shows the tags on a wide screen', async () => {
    renderAt('/state');
    expect(screen.getByRole('heading', { level: 1, name: 'Node status' })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Nodes' });
    expect(within(table).getByRole('columnheader', { name: 'Labels' })).toBeInTheDocument();
    expect(
      within(table)
        .getAllByTestId('node-tag')
        .map((tag) => tag.textContent),
    ).toEqual(['fast', 'stream']);
  });

  it('hides the tags on a phone-wide screen', async () => {
    setViewportWidth(375);
    renderAt('/state');
    const table = await screen.findByRole('table', { name: 'Nodes' });
    expect(within(table).queryByRole('columnheader', { name: 'Labels' })).not.toBeInTheDocument();
    expect(within(table).queryByTestId('node-tag')).not.toBeInTheDocument();
  });

  it('hides the tags in mobile mode', async () => {
    renderAt('/state/mobile/en');
    const table = await screen.findByRole('table', { name: 'Nodes' });
    expect(within(table).queryByTestId('node-tag')).not.toBeInTheDocument();
    expect(
      within(table)
        .getAllByTestId('node-status')
        .map((status) => status.textContent),
    ).toEqual(['Online', 'Offline']);
  });
});
