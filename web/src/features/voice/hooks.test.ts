import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { callTitle } from './hooks';

const t = ((k: string) => k) as unknown as TFunction;
const person = (msId: string, name: string) => ({ msId, name, type: '0', state: 'connected' });

describe('callTitle', () => {
  it('names an individual call by the other party, a call to a phone number by the number dialled', () => {
    const parties = [person('10000001', 'Dispatcher'), person('10000180', 'SIP trunk')];
    expect(callTitle(t, { callId: 'c1', kind: 'single', parties }, '10000001')).toBe('SIP trunk');
    expect(callTitle(t, { callId: 'c2', kind: 'single', parties, number: '+4930123456' }, '10000001')).toBe('+4930123456');
  });
});
