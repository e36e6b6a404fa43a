// @vitest-environment node
import { describe, expect, it, vi } from 'vitest';
import { SocketError } from '../../shared/socket/client';
import { englishErrorText } from '../../shared/test/errorText';
import en from './i18n/en-US.json';
import { accountRoute, dialable, routeOf, trunkRoute, type DialRoute } from './dial';

const invite = vi.fn(async () => ({ callId: 'C1', status: 102 }));
vi.mock('../../shared/voice/console', () => ({ consoleVoice: () => ({ invite }) }));

describe('the dial pad routes', () => {
  it('calls an 8-digit account id by its id', async () => {
    expect(routeOf('10000180')).toBe(accountRoute);
    await routeOf('10000180')?.call('10000180');
    expect(invite).toHaveBeenLastCalledWith('single', { msId: '10000180' });
  });

  it('calls any other phone number through the trunk, and nothing else', async () => {
    for (const n of ['112', '5550100', '100001800', '+4930123456', '+10000180', '12345678901234567890']) expect(routeOf(n)).toBe(trunkRoute);
    await routeOf('+4930123456')?.call('+4930123456');
    expect(invite).toHaveBeenLastCalledWith('single', { number: '+4930123456' });
    for (const n of ['', '12', '+12', '1000018*', '#1000018', '*21#', '123456789012345678901', '4930+1', '++4930', 'abcdefgh']) expect(routeOf(n)).toBeUndefined();
  });

  it('takes the first route that takes a number', () => {
    const trunk: DialRoute = { name: 'trunk', takes: (n) => n.startsWith('0'), call: vi.fn(async () => undefined) };
    expect(routeOf('0049301234', [accountRoute, trunk])).toBe(trunk);
    expect(routeOf('10000180', [accountRoute, trunk])).toBe(accountRoute);
  });

  it('keeps only the keys of the pad from what is typed', () => {
    expect(dialable(' 1000-0180 ')).toBe('10000180');
    expect(dialable('*12#a')).toBe('*12#');
    expect(dialable(' +49 (30) 123-456 ')).toBe('+4930123456');
    expect(dialable('49+30')).toBe('4930');
  });
});

describe('the trunk route\'s refusals', () => {
  it('say why a number cannot be called', async () => {
    const text = await englishErrorText('voice', en);
    expect(text(new SocketError('480', 'no registered SIP trunk reaches phone numbers'))).toBe(en.errors['480']);
    expect(text(new SocketError('484', 'not a phone number'))).toBe(en.errors['484']);
  });
});
