import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, waitFor } from '@testing-library/react';
import { App } from 'antd';
import { setFetch } from '../../../shared/http/client';
import type { MediaItem } from '../api';
import { englishConsole, jsonResponse } from '../../../shared/test/console';
import { openPopconfirm, SLOW } from '../../../shared/test/popconfirm';
import { DeleteMedia } from './DeleteMedia';

const item: MediaItem = { id: '7', msId: '10000101', fileId: 'f7', kind: 'image', name: 'IMG_7.jpg', url: '/filews/files/f7', time: 1 };

/** The server answers every call with code (and records what was asked). */
function server(code: string) {
  const calls: { method?: string; url: string }[] = [];
  setFetch((async (url: RequestInfo | URL, init?: RequestInit) => {
    calls.push({ method: init?.method, url: String(url) });
    return jsonResponse(code === '0' ? { code, result: { id: '7' } } : { code, msg: 'no' });
  }) as typeof fetch);
  return calls;
}

/** Clicks the item's delete button: the confirmation opens. */
async function openConfirm(): Promise<HTMLElement> {
  const pop = await openPopconfirm('media-delete');
  expect(pop.textContent).toContain('Delete “IMG_7.jpg”?');
  return pop;
}

const ok = (pop: HTMLElement) => fireEvent.click([...pop.querySelectorAll('button')].find((b) => b.textContent === 'Delete')!);

englishConsole({ signedIn: true });

describe('deleting a media-cloud item', { timeout: 20_000 }, () => {
  it('asks first, deletes on confirmation and drops the item', async () => {
    const calls = server('0');
    const onGone = vi.fn();
    render(
      <App>
        <DeleteMedia item={item} onGone={onGone} compact />
      </App>,
    );
    const pop = await openConfirm();
    expect(calls).toEqual([]); // nothing is deleted before the confirmation
    ok(pop);
    await waitFor(() => expect(onGone).toHaveBeenCalledWith('7'), SLOW);
    expect(calls).toEqual([{ method: 'DELETE', url: '/ds/mediaLib/delete?id=7' }]);
    await waitFor(() => expect(document.body.textContent).toContain('Deleted.'), SLOW);
  });

  it.each([
    ['409', 'A tone or a floor plan still uses this file: remove it there first.', false],
    ['404', 'It no longer exists.', true],
    ['79', "Your organisation's storage is full", false],
    ['12345', 'The operation failed (code 12345).', false],
  ])('answered %s: says why, and drops the item only if it is gone', async (code, text, dropped) => {
    server(code);
    const onGone = vi.fn();
    render(
      <App>
        <DeleteMedia item={item} onGone={onGone} />
      </App>,
    );
    ok(await openConfirm());
    await waitFor(() => expect(document.body.textContent).toContain(text), SLOW);
    expect(onGone).toHaveBeenCalledTimes(dropped ? 1 : 0);
  });
});
