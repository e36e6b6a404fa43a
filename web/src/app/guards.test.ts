// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { guard, skipsTokenCheck } from './guards';
import { isDsKeyEnabled, isFeatureEnabled, noDefaultKey, showCameraGroup, showOutsideGroup, type GateContext } from '../shared/access/features';
import { ALL_ROUTES, FOLLOW_WINDOW_NUMBERS, findRoute } from '../shared/access/routes';
import { buildMenu } from './menu';

const gate = (over: Partial<GateContext> = {}): GateContext => ({ accountType: '1', version: '1', flags: {}, ...over });
const go = (pathname: string, hasToken = true, g = gate()) => guard({ pathname, hasToken, gate: g });

describe('guard rules (spec §2)', () => {
  it('sends every route to login without a token', () => {
    for (const p of ['/home', '/404', '/log', '/nonsense', '/']) expect(go(p, false)).toEqual({ kind: 'redirect', to: '/login' });
    expect(go('/login', false)).toEqual({ kind: 'allow' });
  });

  it('deletes the token cookie when login is opened with a token', () => {
    expect(go('/login', true)).toEqual({ kind: 'allow', deleteTokenCookie: true });
  });

  it('sends paths without a permitted fragment to 404', () => {
    expect(go('/definitely-not-a-screen')).toEqual({ kind: 'redirect', to: '/404' });
    expect(go('/admin')).toEqual({ kind: 'redirect', to: '/404' });
  });

  it('lets child copies and /patrol-sys skip the token check', () => {
    expect(skipsTokenCheck('/log-child')).toBe(true);
    expect(skipsTokenCheck('/monitoring-follow-child-7')).toBe(true);
    expect(skipsTokenCheck('/patrol-sys')).toBe(true);
    expect(skipsTokenCheck('/log')).toBe(false);
    expect(go('/log-child', false)).toEqual({ kind: 'allow' });
    expect(go('/monitoring-follow-child-4', false)).toEqual({ kind: 'allow' });
    expect(go('/patrol-sys', false)).toEqual({ kind: 'allow' });
    expect(go('/log', false)).toEqual({ kind: 'redirect', to: '/login' });
  });

  it('sends a route whose feature is off to 404, also for child copies', () => {
    const off = gate({ flags: { logger: 0 } });
    expect(go('/log', true, off)).toEqual({ kind: 'redirect', to: '/404' });
    expect(go('/log-child', false, off)).toEqual({ kind: 'redirect', to: '/404' });
    expect(go('/home', true, off)).toEqual({ kind: 'allow' });
  });

  it('drops a whole route group when its data-source value is 0', () => {
    const g = gate({ flags: { report: 0 } });
    for (const p of ['/report', '/online', '/gps-data', '/message-data', '/call-duration-data-child']) expect(go(p, true, g)).toEqual({ kind: 'redirect', to: '/404' });
    expect(go('/report', true, gate({ flags: { report: 1 } }))).toEqual({ kind: 'allow' });
  });

  it('applies redirects: / → /home, /patrol → /patrol-statistic, /maps → /monitoring', () => {
    expect(go('/')).toEqual({ kind: 'redirect', to: '/home' });
    expect(go('/patrol')).toEqual({ kind: 'redirect', to: '/patrol-statistic' });
    expect(go('/maps')).toEqual({ kind: 'redirect', to: '/monitoring' });
  });

  it('allows the shell routes with a token', () => {
    for (const p of ['/home', '/user-manual', '/404']) expect(go(p)).toEqual({ kind: 'allow' });
  });
});

describe('route table (spec §2)', () => {
  it('has follow-monitor windows 1, 2 and 4–20 but not 3', () => {
    expect(FOLLOW_WINDOW_NUMBERS).toEqual([1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
    expect(findRoute('/monitoring-follow-child-3')).toBeUndefined();
    expect(findRoute('/monitoring-follow-child-20')?.child).toBe(true);
    expect(go('/monitoring-follow-child-3', false)).toEqual({ kind: 'redirect', to: '/404' });
  });

  it('has every -child copy the spec lists, and none for message-data', () => {
    const children = ['/monitoring', '/os-monitoring', '/secret-keys', '/theme', '/voice-list', '/alarm', '/lonework', '/job-ticketing', '/medias', '/video-surveillance', '/video-records', '/report', '/online', '/fence-alarm-data', '/emergcy-alarm-report', '/emergcy-alarm-data', '/lonework-alarm-data', '/job-tick-data', '/call-duration-data', '/gps-data', '/log', '/message'];
    for (const p of children) {
      expect(findRoute(p), p).toBeDefined();
      expect(findRoute(`${p}-child`)?.child, `${p}-child`).toBe(true);
    }
    expect(findRoute('/message-data')).toBeDefined();
    expect(findRoute('/message-data-child')).toBeUndefined();
    expect(findRoute('/indoor-child')).toBeUndefined();
    expect(findRoute('/broadcast-child')).toBeUndefined();
  });

  it('marks /alarm-child hidden and not cached, /indoor hidden but under more', () => {
    expect(findRoute('/alarm-child')).toMatchObject({ hidden: true, noCache: true });
    expect(findRoute('/indoor')).toMatchObject({ hidden: true, more: true });
    for (const p of ['/lonework', '/job-ticketing', '/patrol-statistic']) expect(findRoute(p)?.more).toBe(true);
  });

  it('gates each route by the spec data-source key', () => {
    expect(findRoute('/os-monitoring')?.dsKey).toBe('map');
    expect(findRoute('/video-records')?.dsKey).toBe('videoMonitor');
    expect(findRoute('/patrol-calendar')?.dsKey).toBe('patrol');
    expect(findRoute('/theme')?.dsKey).toBe('theme');
    expect(ALL_ROUTES.filter((r) => r.path === '/home' || r.path === '/user-manual' || r.path === '/404').every((r) => !r.dsKey)).toBe(true);
  });
});

describe('feature gating (spec §6)', () => {
  it('allows most features for "-2" and "1" but broadcast, custom theme, temp-group management and mute list only for "1"', () => {
    expect(isFeatureEnabled('map', gate({ accountType: '-2' }))).toBe(true);
    for (const f of ['broadcast', 'customTheme', 'environmentMonitor', 'tempGroupManage', 'muteList'] as const) {
      expect(isFeatureEnabled(f, gate({ accountType: '-2' })), f).toBe(false);
      expect(isFeatureEnabled(f, gate({ accountType: '1' })), f).toBe(true);
    }
    expect(isFeatureEnabled('map', gate({ accountType: '5' }))).toBe(false);
  });

  it('lets only map, message, report and logger work in version "0"', () => {
    const v0 = gate({ version: '0' });
    for (const f of ['map', 'message', 'report', 'logger'] as const) expect(isFeatureEnabled(f, v0), f).toBe(true);
    for (const f of ['sosManage', 'historyVoice', 'videoMonitor', 'patrol'] as const) expect(isFeatureEnabled(f, v0), f).toBe(false);
    expect(go('/alarm', true, v0)).toEqual({ kind: 'redirect', to: '/404' });
    expect(go('/log', true, v0)).toEqual({ kind: 'allow' });
  });

  it('turns a feature off with 0 or a no…Default override', () => {
    expect(noDefaultKey('map')).toBe('noMapDefault');
    expect(isFeatureEnabled('map', gate({ flags: { map: 0 } }))).toBe(false);
    expect(isFeatureEnabled('map', gate({ flags: { map: '0' } }))).toBe(false);
    expect(isFeatureEnabled('map', gate({ flags: { noMapDefault: 1 } }))).toBe(false);
    expect(isFeatureEnabled('map', gate({ flags: { map: 1, noMapDefault: 0 } }))).toBe(true);
    expect(isDsKeyEnabled('theme', gate({ flags: { theme: 0 } }))).toBe(false);
  });

  it('shows the camera group only with version 1 and video-monitor access; the outside group only when the host enables it', () => {
    expect(showCameraGroup(gate())).toBe(true);
    expect(showCameraGroup(gate({ version: '0' }))).toBe(false);
    expect(showCameraGroup(gate({ flags: { videoMonitor: 0 } }))).toBe(false);
    expect(showOutsideGroup({})).toBe(false);
    expect(showOutsideGroup({ outsideTerminals: 1 })).toBe(true);
  });

  it('orders the menu map 1, message 2, history voice 3, SOS 4, video 5, media 6, broadcast 7, report 8, logger 9', () => {
    const m = buildMenu(gate());
    expect(m.main.map((r) => r.path)).toEqual(['/home', '/monitoring', '/message', '/voice-list', '/alarm', '/video-surveillance', '/medias', '/broadcast', '/report', '/log']);
    expect(m.more.map((r) => r.path)).toEqual(expect.arrayContaining(['/indoor', '/lonework', '/job-ticketing', '/patrol-statistic', '/user-manual']));
    const limited = buildMenu(gate({ accountType: '-2', version: '0' }));
    expect(limited.main.map((r) => r.path)).toEqual(['/home', '/monitoring', '/message', '/report', '/log']);
  });
});
