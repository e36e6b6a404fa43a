import { afterEach, describe, expect, it } from 'vitest';
import { bindPttKey, isTypingTarget, onFirstGesture } from './keys';

const key = (type: 'keydown' | 'keyup', code: string, init: KeyboardEventInit = {}, target: EventTarget = window) =>
  target.dispatchEvent(new KeyboardEvent(type, { code, key: code === 'Space' ? ' ' : code, bubbles: true, cancelable: true, ...init }));

describe('PTT key', () => {
  let unbind: () => void = () => {};
  afterEach(() => {
    unbind();
    document.body.innerHTML = '';
  });

  function bind(code: string | string[] = 'Space', toggles: string[] = []) {
    const log: string[] = [];
    unbind = bindPttKey(window, { code: () => code, toggleCodes: () => toggles, onDown: () => log.push('down'), onUp: () => log.push('up') });
    return log;
  }

  it('talks on keydown, ignores repeats, stops on keyup', () => {
    const log = bind();
    key('keydown', 'Space');
    key('keydown', 'Space', { repeat: true });
    key('keydown', 'Space');
    key('keyup', 'Space');
    expect(log).toEqual(['down', 'up']);
  });

  it('stops when the key is released with the focus somewhere else', () => {
    const log = bind();
    const button = document.body.appendChild(document.createElement('button'));
    key('keydown', 'Space');
    button.focus();
    key('keyup', 'Space', {}, button);
    expect(log).toEqual(['down', 'up']);
  });

  it('stops when the window loses focus or is hidden (a keyup elsewhere never arrives)', () => {
    const log = bind();
    key('keydown', 'Space');
    window.dispatchEvent(new Event('blur'));
    key('keydown', 'Space');
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
    Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
    expect(log).toEqual(['down', 'up', 'down', 'up']);
  });

  it('prevents the default (no page scroll, no button click) but not while typing in a field', () => {
    bind();
    const input = document.body.appendChild(document.createElement('input'));
    const ev = new KeyboardEvent('keydown', { code: 'Space', key: ' ', bubbles: true, cancelable: true });
    window.dispatchEvent(ev);
    expect(ev.defaultPrevented).toBe(true);
    key('keyup', 'Space');
    const typing = new KeyboardEvent('keydown', { code: 'Space', key: ' ', bubbles: true, cancelable: true });
    input.dispatchEvent(typing);
    expect(typing.defaultPrevented).toBe(false);
  });

  it('a function key talks even from a text field; modifiers do not talk', () => {
    const log = bind('F8');
    const input = document.body.appendChild(document.createElement('input'));
    key('keydown', 'F8', {}, input);
    key('keyup', 'F8', {}, input);
    key('keydown', 'F8', { ctrlKey: true });
    expect(log).toEqual(['down', 'up']);
  });

  it('uses the key from the settings at each event', () => {
    let code = 'Space';
    const log: string[] = [];
    unbind = bindPttKey(window, { code: () => code, onDown: () => log.push('down'), onUp: () => log.push('up') });
    code = 'KeyT';
    key('keydown', 'Space');
    key('keydown', 'KeyT');
    key('keyup', 'KeyT');
    expect(log).toEqual(['down', 'up']);
  });

  it('toggle keys (headset buttons without a usable release) start and stop on alternate presses', () => {
    const log = bind('Space', ['MediaPlayPause']);
    key('keydown', 'MediaPlayPause');
    key('keyup', 'MediaPlayPause');
    expect(log).toEqual(['down']);
    key('keydown', 'MediaPlayPause');
    expect(log).toEqual(['down', 'up']);
  });

  it('unbinding while held releases', () => {
    const log = bind();
    key('keydown', 'Space');
    unbind();
    unbind = () => {};
    key('keyup', 'Space');
    expect(log).toEqual(['down', 'up']);
  });
});

describe('typing targets', () => {
  it('are text inputs, text areas and editable elements, for printable keys only', () => {
    const text = document.createElement('input');
    const box = Object.assign(document.createElement('input'), { type: 'checkbox' });
    const area = document.createElement('textarea');
    expect(isTypingTarget(text, 'Space')).toBe(true);
    expect(isTypingTarget(text, 'KeyA')).toBe(true);
    expect(isTypingTarget(text, 'F8')).toBe(false);
    expect(isTypingTarget(box, 'Space')).toBe(false);
    expect(isTypingTarget(area, 'Space')).toBe(true);
    expect(isTypingTarget(document.body, 'Space')).toBe(false);
  });
});

describe('audio unlock', () => {
  it('runs once, on the first gesture', () => {
    let n = 0;
    onFirstGesture(window, () => n++);
    window.dispatchEvent(new Event('pointerdown'));
    window.dispatchEvent(new Event('keydown'));
    expect(n).toBe(1);
  });
});
