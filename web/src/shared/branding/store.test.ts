// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { hasCustomColours, parseBranding } from './store';

describe('parseBranding', () => {
  it('keeps the given fields, drops blank ones and reads the remark', () => {
    const b = parseBranding({
      sysName: 'Acme',
      themeColor: '#136f63',
      logoUrl: '',
      copyright: '© Acme',
      remark: '{"logoPageBg":"#f0f0f0","loginFrameColor":"#ffffff"}',
    });
    expect(b).toMatchObject({ sysName: 'Acme', themeColor: '#136f63', copyright: '© Acme', logoPageBg: '#f0f0f0', loginFrameColor: '#ffffff' });
    expect(b?.logoUrl).toBeUndefined();
    expect(b && 'remark' in b).toBe(false);
    expect(hasCustomColours(b)).toBe(true);
  });

  it('answers null without a record and survives a malformed remark', () => {
    expect(parseBranding(null)).toBeNull();
    const b = parseBranding({ sysName: 'Acme', remark: '{not json' });
    expect(b?.sysName).toBe('Acme');
    expect(b?.logoPageBg).toBeUndefined();
    expect(hasCustomColours(b)).toBe(false);
  });
});
