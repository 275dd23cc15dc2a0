import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { envelope, stubFetch } from '../../../testing/fetch-stub';
import { renderConsole, sessionOf } from '../../testing';

const noticeSession = sessionOf({ role: 'manager', permissions: ['notice.write'] });

describe('the notice screen', () => {
  it('sets the notice in three languages with a sanitised preview of each, as the dashboard shows it', async () => {
    const network = stubFetch()
      .on('GET', '/api/session', envelope(noticeSession))
      .on('GET', '/api/notice', envelope({ texts: null }))
      .on('PUT', '/api/notice', (request) => {
        const { en, ...others } = JSON.parse(request.bodyText);
        return envelope({ texts: { en, 'pt-BR': others['pt-BR'] ?? en, 'zh-Hans': others['zh-Hans'] ?? en } });
      });
    const { user } = await renderConsole({ path: '/notice' });

    expect(await screen.findByText('No notice is shown now.', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Clear notice' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save notice' }));
    expect(screen.getByText('Write the notice in English.')).toBeInTheDocument();
    expect(network.to('/api/notice', 'PUT')).toHaveLength(0);

    await user.click(screen.getByLabelText(/^English/));
    await user.paste('<b>Maintenance</b> tonight<img src=x onerror=alert(1)>');
    await user.click(screen.getByLabelText(/^Portuguese/));
    await user.paste('Manutenção hoje');
    const english = screen.getByRole('region', { name: 'Notice preview: English' });
    expect(within(english).getByText('Maintenance').tagName).toBe('B');
    expect(english.querySelector('img')?.getAttribute('onerror')).toBeNull();
    expect(screen.getByRole('region', { name: 'Notice preview: Portuguese' })).toHaveTextContent('Manutenção hoje');
    // Left empty, Chinese shows the English text, as customers would see it.
    expect(screen.getByRole('region', { name: 'Notice preview: Chinese' })).toHaveTextContent('Maintenance tonight');

    await user.click(screen.getByRole('button', { name: 'Save notice' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Notice saved.');
    expect(JSON.parse(network.to('/api/notice', 'PUT')[0]!.bodyText)).toEqual({
      en: '<b>Maintenance</b> tonight<img src=x onerror=alert(1)>',
      'pt-BR': 'Manutenção hoje',
    });
    expect(screen.getByLabelText(/^Chinese/)).toHaveValue('<b>Maintenance</b> tonight<img src=x onerror=alert(1)>');
  });

  it('clears the notice only after a confirmation', async () => {
    const texts = { en: 'Hello', 'pt-BR': 'Olá', 'zh-Hans': '你好' };
    const network = stubFetch()
      .on('GET', '/api/session', envelope(noticeSession))
      .on('GET', '/api/notice', envelope({ texts }))
      .on('DELETE', '/api/notice', envelope({ texts: null }));
    const { user } = await renderConsole({ path: '/notice', language: 'zh' });

    expect(await screen.findByLabelText(/^中文/, {}, { timeout: 5000 })).toHaveValue('你好');
    await user.click(screen.getByRole('button', { name: '清除公告' }));
    const dialog = await screen.findByRole('dialog', { name: '清除公告？' });
    await user.click(within(dialog).getAllByRole('button', { name: '取消' }).at(-1)!);
    expect(network.to('/api/notice', 'DELETE')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: '清除公告' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: '清除公告？' })).getByRole('button', { name: '清除' }),
    );
    expect(await screen.findByText('当前没有显示公告。')).toBeInTheDocument();
    expect(network.to('/api/notice', 'DELETE')).toHaveLength(1);
    expect(screen.getByLabelText(/^中文/)).toHaveValue('');
    expect(screen.getByRole('status')).toHaveTextContent('公告已清除。');
  });
});
