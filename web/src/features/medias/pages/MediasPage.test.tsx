import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App } from 'antd';
import { initI18n } from '../../../i18n';
import { installAuthHooks, setFetch } from '../../../shared/http/client';
import type { MediaItem } from '../api';
import MediasPage from './MediasPage';

// waitFor's 1 s default is too short on a loaded machine.
const SLOW = { timeout: 5000 };

// The page's live socket: the test pushes events to whatever the page subscribed.
const handlers = new Map<string, (e: { type: string; data: unknown }) => void>();
vi.mock('../../../shared/socket/live', () => ({
  live: () => ({
    on: (type: string, fn: (e: { type: string; data: unknown }) => void) => {
      handlers.set(type, fn);
      return () => handlers.delete(type);
    },
  }),
  onResync: () => () => {},
  useLiveStatus: (sel: (s: { status: string }) => unknown) => sel({ status: 'online' }),
}));
vi.mock('../../../shared/directory/useLiveDirectory', () => ({ useLiveDirectory: () => {} }));

const item = (id: string): MediaItem => ({ id, msId: '10000101', msName: 'Radio 1', fileId: `f${id}`, kind: 'image', name: `IMG_${id}.jpg`, url: `/filews/files/f${id}`, time: Date.now() - Number(id) * 1000 });

beforeAll(async () => {
  await initI18n('en-US');
  installAuthHooks({ token: () => 'tok', reauthenticate: () => Promise.reject(new Error('no')), expired: () => {} });
});
afterEach(cleanup);

describe('the media cloud page and deletes', { timeout: 20_000 }, () => {
  it('drops an item another dispatcher deleted at once and fetches the page again', async () => {
    let lists = 0;
    let stored = [item('7'), item('8')];
    setFetch((async (url: RequestInfo | URL) => {
      if (String(url).startsWith('/ds/mediaLib/list')) lists++;
      return new Response(JSON.stringify({ code: '0', result: { total: stored.length, list: stored } }), { headers: { 'Content-Type': 'application/json' } });
    }) as typeof fetch);
    render(
      <QueryClientProvider client={new QueryClient()}>
        <App>
          <MediasPage />
        </App>
      </QueryClientProvider>,
    );
    const ids = () => screen.queryAllByTestId('media-item').map((el) => el.dataset.id);
    await waitFor(() => expect(ids()).toEqual(['7', '8']), SLOW);
    expect(lists).toBe(1);

    stored = [item('8')];
    act(() => handlers.get('media.removed')!({ type: 'media.removed', data: { id: 7, msId: '10000101', fileId: 'f7' } }));
    expect(ids()).toEqual(['8']); // before the refetch answers
    await waitFor(() => expect(lists).toBe(2), SLOW);
    expect(ids()).toEqual(['8']);
  });
});
