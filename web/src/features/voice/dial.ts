// What a number dialled on the console's pad calls (components/Dialpad.tsx).

import { consoleVoice } from '../../shared/voice/console';

/** One kind of number the pad calls: which numbers it takes, and how it calls one. */
export interface DialRoute {
  name: string;
  takes: (n: string) => boolean;
  call: (n: string) => Promise<unknown>;
}

/** An account of the customer by its id (8 digits, spec §5): a terminal, a dispatcher or a SIP phone, called
 * individually as from the terminal menu (docs/sip.md "Individual calls"). */
export const accountRoute: DialRoute = {
  name: 'account',
  takes: (n) => /^[0-9]{8}$/.test(n),
  call: (n) => consoleVoice().invite('single', { msId: n }),
};

/** A phone number (3 to 20 digits, an optional leading +), called through the customer's SIP trunk as an
 * individual call (docs/sip.md "Calls out"; a customer without a registered trunk is refused 480). An 8-digit
 * number is an account's id first: such a phone number is dialled with its prefix or in + form. */
export const trunkRoute: DialRoute = {
  name: 'trunk',
  takes: (n) => /^\+?[0-9]{3,20}$/.test(n),
  call: (n) => consoleVoice().invite('single', { number: n }),
};

/**
 * The routes the pad knows, first match wins: an account's id, else a phone number through the trunk. The call
 * button stays disabled for any number no route takes (no button that calls nothing).
 */
export const DIAL_ROUTES: readonly DialRoute[] = [accountRoute, trunkRoute];

/** The route that calls n, if any. */
export function routeOf(n: string, routes: readonly DialRoute[] = DIAL_ROUTES): DialRoute | undefined {
  return routes.find((r) => r.takes(n));
}

/** The keys of the pad in a phone's order; typed numbers keep only these (and a leading +). */
export const DIAL_KEYS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '*', '0', '#'] as const;

export const dialable = (s: string) => {
  const t = s.trim();
  const keys = [...t].filter((c) => (DIAL_KEYS as readonly string[]).includes(c)).join('');
  return t.startsWith('+') ? `+${keys}` : keys;
};
