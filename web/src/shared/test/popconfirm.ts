// Driving an antd Popconfirm in component tests: open it from its button, confirm it.
import { expect } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';

/** waitFor's 1 s default is too short on a loaded machine. */
export const SLOW = { timeout: 5000 };

/** Clicks the button with testId and waits for its confirmation. */
export async function openPopconfirm(testId: string): Promise<HTMLElement> {
  fireEvent.click(screen.getByTestId(testId));
  const pop = await waitFor(() => {
    const el = document.querySelector<HTMLElement>('.ant-popconfirm');
    if (!el) throw new Error('no confirmation');
    return el;
  }, SLOW);
  expect(pop).toBeTruthy();
  return pop;
}

/** Clicks the confirmation's OK button. */
export function confirmPopup(pop: HTMLElement): void {
  fireEvent.click(pop.querySelector<HTMLElement>('.ant-popconfirm-buttons .ant-btn-primary')!);
}
