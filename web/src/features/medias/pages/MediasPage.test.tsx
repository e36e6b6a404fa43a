import { describe, expect, it, vi } from 'vitest';
import { act, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App } from 'antd';
import { setFetch } from '../../../shared/http/client';
import { englishConsole, jsonResponse } from '../../../shared/test/console';
import { SLOW } from '../../../shared/test/popconfirm';
import type { MediaItem } from '../api';
import MediasPage from './MediasPage';

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

englishConsole({ signedIn: true });

describe('the media cloud page and deletes', { timeout: 20_000 }, () => {
  it('drops an item another dispatcher deleted at once and fetches the page again', async () => {
    let lists = 0;
    let stored = [item('7'), item('8')];
    setFetch((async (url: RequestInfo | URL) => {
      if (String(url).startsWith('/ds/mediaLib/list')) lists++;
      return jsonResponse({ code: '0', result: { total: stored.length, list: stored } });
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
