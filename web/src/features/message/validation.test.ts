// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { checkContent, checkFileSize, checkTargets, checkToneName, contentToSend, hasIllegalChars, kindForFile, OTHERS_GROUP, sendTargets } from './validation';

describe('message content (spec §5, docs/messages.md §2)', () => {
  it('refuses empty and blank text unless a file is attached', () => {
    expect(checkContent('')).toBe('11');
    expect(checkContent('  \n\t ')).toBe('11');
    expect(checkContent('', true)).toBeUndefined();
    expect(contentToSend('   ')).toBe('');
  });

  it('refuses the illegal set and keeps line feeds and tabs', () => {
    expect(checkContent('line 1\nline\t2')).toBeUndefined();
    expect(checkContent('a\r\nb')).toBeUndefined(); // stored as \n
    expect(contentToSend('a\r\nb')).toBe('a\nb');
    for (const bad of ['\u0000', '\u0007', '\r', '\u001b', '\u007f', '\u0085', '\u009f', '\ufffd', '\ufeff', '\ufffe', '\uffff', '\u202a', '\u202e', '\u2066', '\u2069', '\ud800']) {
      expect(checkContent(`x${bad}y`), JSON.stringify(bad)).toBe('10');
    }
    expect(hasIllegalChars('emoji 🚒 ok, 中文, Türkçe, русский')).toBe(false);
    expect(checkContent('\u2067')).toBe('10');
  });

  it('counts code points against the 1,000-character limit', () => {
    expect(checkContent('a'.repeat(1000))).toBeUndefined();
    expect(checkContent('a'.repeat(1001))).toBe('tooLong');
    expect(checkContent('🚒'.repeat(1000))).toBeUndefined(); // 2000 UTF-16 units, 1000 characters
  });
});

describe('message sender targets (spec §5)', () => {
  it('needs a group or a terminal, and a terminal with the others group', () => {
    expect(checkTargets([], [])).toBe('noTarget');
    expect(checkTargets([OTHERS_GROUP], [])).toBe('othersNeedTerminal');
    expect(checkTargets([OTHERS_GROUP, '12'], [])).toBe('othersNeedTerminal');
    expect(checkTargets([OTHERS_GROUP], ['10000150'])).toBeUndefined();
    expect(checkTargets(['12'], [])).toBeUndefined();
    expect(checkTargets([], ['10000150'])).toBeUndefined();
  });

  it('sends one request per group and per terminal, without the others entry or repeats', () => {
    expect(sendTargets([OTHERS_GROUP, '12', '12', '13'], ['10000150', '10000150'])).toEqual([{ gid: '12' }, { gid: '13' }, { msId: '10000150' }]);
  });
});

describe('tones and files', () => {
  it('checks the tone name like the server', () => {
    expect(checkToneName('  ')).toBe('76');
    expect(checkToneName('x'.repeat(33))).toBe('77');
    expect(checkToneName('  Evacuate  ')).toBeUndefined();
    expect(checkToneName('two\nlines')).toBe('10');
    expect(checkToneName('tab\there')).toBe('10');
  });

  it('checks sizes before uploading and picks the upload kind', () => {
    expect(checkFileSize(0, 'image')).toBe('70');
    expect(checkFileSize(5 * 1024 * 1024 + 1, 'toneSound')).toBe('71');
    expect(checkFileSize(1024 * 1024, 'toneIcon')).toBeUndefined();
    expect(kindForFile({ type: 'image/png' })).toBe('image');
    expect(kindForFile({ type: 'image/svg+xml' })).toBe('file');
    expect(kindForFile({ type: 'audio/mpeg' })).toBe('audio');
    expect(kindForFile({ type: 'video/mp4' })).toBe('video');
    expect(kindForFile({ type: '' })).toBe('file');
  });
});

