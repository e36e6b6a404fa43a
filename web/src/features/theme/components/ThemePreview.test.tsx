import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { englishConsole } from '../../../shared/test/console';
import { contrast } from '../../../shared/contrast';
import { useSettings } from '../../../shared/settings';
import { blankTheme } from '../api';
import { previewable, ThemePreview } from './ThemePreview';

englishConsole();

describe('previewable', () => {
  it('leaves out colours still being typed', () => {
    const t = previewable({ ...blankTheme('h'), themeColor: '#13', tabColor: '#0b3d3a', callingColor: 'red' });
    expect(t.themeColor).toBe('');
    expect(t.tabColor).toBe('#0b3d3a');
    expect(t.callingColor).toBe('');
  });
});

describe('ThemePreview', () => {
  it('paints the login frame, title, logo and header from the form, readable', () => {
    const theme = { ...blankTheme('h'), sysName: 'Harbour', loginFrameColor: '#e6fffb', tabColor: '#7fffd4', weightThemeColor: '#ffe58f', logoUrl: 'data:image/png;base64,AAAA', copyright: '© Harbour' };
    render(<ThemePreview theme={theme} />);
    expect(screen.getByTestId('preview-title').textContent).toBe('Harbour');
    expect(screen.getByTestId('preview-frame').style.background).toBe('rgb(230, 255, 251)');
    expect(screen.getByTestId('preview-logo').getAttribute('src')).toBe('data:image/png;base64,AAAA');
    // A pale tab colour is darkened for the header's white text; a pale emphasis colour for the title.
    expect(screen.getByTestId('preview-header').style.background).not.toBe('rgb(127, 255, 212)');
    expect(screen.getByTestId('preview-title').style.color).not.toBe('rgb(255, 229, 143)');
    expect(screen.getByText('© Harbour')).toBeTruthy();
  });
  it('is the login page\'s sign-in box: a theme of a name and a colour (white box) in the dark skin reads at AA', () => {
    useSettings.getState().update({ theme: 'dark' });
    render(<ThemePreview theme={{ ...blankTheme('h'), sysName: 'Harbour', themeColor: '#136f63' }} />);
    const frame = screen.getByTestId('preview-frame');
    // The login page's markup and style sheet (signin.css reads these variables), its colours from signInBox.
    expect(frame.classList.contains('login-frame')).toBe(true);
    for (const v of ['--login-heading', '--login-text', '--login-text-secondary', '--login-link']) {
      expect(contrast(frame.style.getPropertyValue(v), '#ffffff'), v).toBeGreaterThanOrEqual(4.5);
    }
    expect(screen.getByText('Account').className).toBe('login-label');
  });
  it('survives a colour half typed', () => {
    render(<ThemePreview theme={{ ...blankTheme('h'), themeColor: '#1', loginFrameColor: '#ff' }} />);
    expect(screen.getByTestId('preview-button')).toBeTruthy();
  });
});
