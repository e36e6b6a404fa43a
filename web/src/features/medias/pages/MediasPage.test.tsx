import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
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
  useLiveStatus: Object.assign((sel: (s: { status: string }) => unknown) => sel({ status: 'online' }), { subscribe: () => () => {} }),
}));
vi.mock('../../../shared/directory/useLiveDirectory', () => ({ useLiveDirectory: () => {} }));

const item = (id: string): MediaItem => ({ id, msId: '10000101', msName: 'Radio 1', fileId: `f${id}`, kind: 'image', name: `IMG_${id}.jpg`, url: `/filews/files/f${id}`, time: Date.now() - Number(id) * 1000 });

englishConsole({ signedIn: true });

/** The page over a stored list the test changes; lists() counts the page's fetches. */
function mount(first: MediaItem[]) {
  let lists = 0;
  const store = { list: first };
  setFetch((async (url: RequestInfo | URL) => {
    if (String(url).startsWith('/ds/mediaLib/list')) lists++;
    return jsonResponse({ code: '0', result: { total: store.list.length, list: store.list } });
  }) as typeof fetch);
  render(
    <QueryClientProvider client={new QueryClient()}>
      <App>
        <MediasPage />
      </App>
    </QueryClientProvider>,
  );
  const ids = () => screen.queryAllByTestId('media-item').map((el) => el.dataset.id);
  const event = (type: string, data: unknown) => act(() => handlers.get(type)!({ type, data }));
  return { store, ids, event, lists: () => lists };
}

describe('the media cloud page, live', { timeout: 20_000 }, () => {
  it('fetches the page again when a terminal uploads an item: the new one shows as the server lists it', async () => {
    const m = mount([item('7'), item('8')]);
    await waitFor(() => expect(m.ids()).toEqual(['7', '8']), SLOW);
    expect(m.lists()).toBe(1);

    m.store.list = [item('5'), item('7'), item('8')];
    m.event('media.added', { ...item('5'), id: 5 });
    await waitFor(() => expect(m.ids()).toEqual(['5', '7', '8']), SLOW);
    expect(m.lists()).toBe(2);
  });

  it('drops an item another dispatcher deleted, and closes its preview', async () => {
    const m = mount([item('7'), item('8')]);
    await waitFor(() => expect(m.ids()).toEqual(['7', '8']), SLOW);
    fireEvent.click(screen.getAllByTestId('media-item')[0]!);
    await waitFor(() => expect(screen.getByTestId('media-preview-image')).toBeTruthy(), SLOW);

    m.store.list = [item('8')];
    m.event('media.removed', { id: 7, msId: '10000101', fileId: 'f7' });
    await waitFor(() => expect(m.ids()).toEqual(['8']), SLOW);
    expect(m.lists()).toBe(2);
    await waitFor(() => expect(screen.queryByTestId('media-preview-image')).toBeNull(), SLOW);
  });
});
