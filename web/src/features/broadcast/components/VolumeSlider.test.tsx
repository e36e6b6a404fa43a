import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { VolumeSlider } from './VolumeSlider';

afterEach(cleanup);

describe('VolumeSlider', () => {
  it('shows its value beside the slider and follows a new stored value', () => {
    const { rerender } = render(<VolumeSlider value={45} testId="v" />);
    expect(screen.getByTestId('v-value').textContent).toBe('45');
    rerender(<VolumeSlider value={70} testId="v" />);
    expect(screen.getByTestId('v-value').textContent).toBe('70');
  });
  it('shows the value as the keyboard moves it and reports the change', () => {
    const onChange = vi.fn();
    render(<VolumeSlider value={45} onChange={onChange} testId="v" />);
    fireEvent.keyDown(screen.getByRole('slider'), { key: 'ArrowRight', keyCode: 39 });
    expect(onChange).toHaveBeenCalledWith(46);
    expect(screen.getByTestId('v-value').textContent).toBe('46');
  });
});
