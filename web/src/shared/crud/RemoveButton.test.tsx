import { describe, expect, it, vi } from 'vitest';
import { render, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App } from 'antd';
import { ApiError } from '../http/createClient';
import { englishConsole } from '../test/console';
import { confirmPopup, openPopconfirm, SLOW } from '../test/popconfirm';
import { RemoveButton } from './RemoveButton';

function setup(remove: () => Promise<unknown>) {
  const qc = new QueryClient();
  const invalidated = vi.spyOn(qc, 'invalidateQueries');
  const onDone = vi.fn();
  render(
    <QueryClientProvider client={qc}>
      <App>
        <RemoveButton ns="patrol" confirm="Remove it?" label="Delete" remove={remove} done="Deleted." invalidate={[['patrol']]} onDone={onDone} testId="rm" />
      </App>
    </QueryClientProvider>,
  );
  return { invalidated, onDone };
}

/** Clicks the button: the question opens. */
async function ask(): Promise<HTMLElement> {
  const pop = await openPopconfirm('rm');
  expect(pop.textContent).toContain('Remove it?');
  return pop;
}

englishConsole();

describe('RemoveButton', { timeout: 20_000 }, () => {
  it('removes only once confirmed, says so and refreshes the lists it names', async () => {
    const remove = vi.fn(() => Promise.resolve());
    const { invalidated, onDone } = setup(remove);
    const pop = await ask();
    expect(remove).not.toHaveBeenCalled();
    confirmPopup(pop);
    await waitFor(() => expect(onDone).toHaveBeenCalled(), SLOW);
    expect(remove).toHaveBeenCalledTimes(1);
    expect(invalidated).toHaveBeenCalledWith({ queryKey: ['patrol'] });
    await waitFor(() => expect(document.body.textContent).toContain('Deleted.'), SLOW);
  });

  it('words a refusal by the server key, then the common codes, and refreshes nothing', async () => {
    const { invalidated, onDone } = setup(() => Promise.reject(new ApiError('500')));
    confirmPopup(await ask());
    await waitFor(() => expect(document.body.textContent).toContain('Server error.'), SLOW);
    expect(invalidated).not.toHaveBeenCalled();
    expect(onDone).not.toHaveBeenCalled();
  });
});
