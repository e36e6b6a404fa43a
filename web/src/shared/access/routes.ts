// The route table of spec §2, as data. The router, the guards, the menu and the tests all read this one list.
import type { DsKey } from './features';

export type Screen =
  | 'home' | 'userManual' | 'notFound' | 'monitoring' | 'osMonitoring' | 'followMonitoring' | 'secretKeys' | 'theme'
  | 'voiceList' | 'alarm' | 'indoor' | 'lonework' | 'jobTicketing' | 'broadcast' | 'medias' | 'videoSurveillance'
  | 'videoRecords' | 'report' | 'online' | 'fenceAlarmData' | 'emergcyAlarmReport' | 'emergcyAlarmData'
  | 'loneworkAlarmData' | 'jobTickData' | 'callDurationData' | 'gpsData' | 'messageData' | 'log' | 'message'
  | 'patrolStatistic' | 'patrolPoint' | 'patrolPlan' | 'patrolCalendar' | 'patrolSys' | 'schoolBus';

export interface RouteDef {
  path: string;
  screen: Screen;
  /** Data-source key gating the route (spec §2, §6). */
  dsKey?: DsKey;
  /** Not shown in the main menu. */
  hidden?: boolean;
  /** Shown under the 'more' menu. */
  more?: boolean;
  /** Not kept alive when leaving the tab. */
  noCache?: boolean;
  /** An extra-window copy: skips the token check and renders without the shell. */
  child?: boolean;
  /** Menu position for features with a spec menu order (1–9). */
  menuOrder?: number;
}

/** Follow-monitor windows are numbered 1, 2, 4 … 20 (3 is skipped, spec §2, §9). */
export const FOLLOW_WINDOW_NUMBERS = [1, 2, ...Array.from({ length: 17 }, (_, i) => i + 4)];

function withChild(def: RouteDef, child = true): RouteDef[] {
  return child ? [def, { ...def, path: `${def.path}-child`, child: true, hidden: true, more: false, menuOrder: undefined }] : [def];
}

/** Shell children (rendered inside the main layout). */
export const SHELL_ROUTES: RouteDef[] = [
  { path: '/home', screen: 'home' },
  { path: '/user-manual', screen: 'userManual', more: true },
  { path: '/404', screen: 'notFound', hidden: true },
  // Not in spec §2's table, which gates no school-bus key: this server's screen for /ds/schoolCar (issue 33).
  { path: '/school-bus', screen: 'schoolBus', more: true },
];

/** Route groups added when their data-source key is not disabled (spec §2 "Extra route groups"). */
export const ROUTE_GROUPS: { dsKey: DsKey; routes: RouteDef[] }[] = [
  {
    dsKey: 'map',
    routes: [
      ...withChild({ path: '/monitoring', screen: 'monitoring', dsKey: 'map', menuOrder: 1 }),
      ...withChild({ path: '/os-monitoring', screen: 'osMonitoring', dsKey: 'map', hidden: true }),
      ...FOLLOW_WINDOW_NUMBERS.map((n): RouteDef => ({ path: `/monitoring-follow-child-${n}`, screen: 'followMonitoring', dsKey: 'map', child: true, hidden: true })),
    ],
  },
  { dsKey: 'keyManage', routes: withChild({ path: '/secret-keys', screen: 'secretKeys', dsKey: 'keyManage', more: true }) },
  { dsKey: 'theme', routes: withChild({ path: '/theme', screen: 'theme', dsKey: 'theme', more: true }) },
  { dsKey: 'historyVoice', routes: withChild({ path: '/voice-list', screen: 'voiceList', dsKey: 'historyVoice', menuOrder: 3 }) },
  {
    dsKey: 'sosManage',
    routes: [
      { path: '/alarm', screen: 'alarm', dsKey: 'sosManage', menuOrder: 4 },
      { path: '/alarm-child', screen: 'alarm', dsKey: 'sosManage', child: true, hidden: true, noCache: true },
    ],
  },
  { dsKey: 'indoorLocation', routes: [{ path: '/indoor', screen: 'indoor', dsKey: 'indoorLocation', hidden: true, more: true }] },
  { dsKey: 'workAlone', routes: withChild({ path: '/lonework', screen: 'lonework', dsKey: 'workAlone', more: true }) },
  { dsKey: 'jobTicketing', routes: withChild({ path: '/job-ticketing', screen: 'jobTicketing', dsKey: 'jobTicketing', more: true }) },
  { dsKey: 'broadcast', routes: [{ path: '/broadcast', screen: 'broadcast', dsKey: 'broadcast', menuOrder: 7 }] },
  { dsKey: 'mediaManage', routes: withChild({ path: '/medias', screen: 'medias', dsKey: 'mediaManage', menuOrder: 6 }) },
  {
    dsKey: 'videoMonitor',
    routes: [
      ...withChild({ path: '/video-surveillance', screen: 'videoSurveillance', dsKey: 'videoMonitor', menuOrder: 5 }),
      ...withChild({ path: '/video-records', screen: 'videoRecords', dsKey: 'videoMonitor', hidden: true }),
    ],
  },
  {
    dsKey: 'report',
    routes: [
      ...withChild({ path: '/report', screen: 'report', dsKey: 'report', menuOrder: 8 }),
      ...withChild({ path: '/online', screen: 'online', dsKey: 'report', hidden: true }),
      ...withChild({ path: '/fence-alarm-data', screen: 'fenceAlarmData', dsKey: 'report', hidden: true }),
      ...withChild({ path: '/emergcy-alarm-report', screen: 'emergcyAlarmReport', dsKey: 'report', hidden: true }),
      ...withChild({ path: '/emergcy-alarm-data', screen: 'emergcyAlarmData', dsKey: 'report', hidden: true }),
      ...withChild({ path: '/lonework-alarm-data', screen: 'loneworkAlarmData', dsKey: 'report', hidden: true }),
      ...withChild({ path: '/job-tick-data', screen: 'jobTickData', dsKey: 'report', hidden: true }),
      ...withChild({ path: '/call-duration-data', screen: 'callDurationData', dsKey: 'report', hidden: true }),
      ...withChild({ path: '/gps-data', screen: 'gpsData', dsKey: 'report', hidden: true }),
      { path: '/message-data', screen: 'messageData', dsKey: 'report', hidden: true },
    ],
  },
  { dsKey: 'logger', routes: withChild({ path: '/log', screen: 'log', dsKey: 'logger', menuOrder: 9 }) },
  {
    dsKey: 'message',
    routes: [
      { path: '/message', screen: 'message', dsKey: 'message', menuOrder: 2 },
      { path: '/message-child', screen: 'message', dsKey: 'message', child: true, hidden: true },
    ],
  },
  {
    dsKey: 'patrol',
    routes: [
      { path: '/patrol-statistic', screen: 'patrolStatistic', dsKey: 'patrol', more: true },
      { path: '/patrol-point', screen: 'patrolPoint', dsKey: 'patrol', hidden: true },
      { path: '/patrol-plan', screen: 'patrolPlan', dsKey: 'patrol', hidden: true },
      { path: '/patrol-calendar', screen: 'patrolCalendar', dsKey: 'patrol', hidden: true },
      { path: '/patrol-sys', screen: 'patrolSys', dsKey: 'patrol', hidden: true },
    ],
  },
];

/** Redirects of spec §2. */
export const REDIRECTS: Record<string, string> = {
  '/': '/home',
  '/maps': '/monitoring',
  '/patrol': '/patrol-statistic',
};

export const LOGIN_PATH = '/login';
export const NOT_FOUND_PATH = '/404';
export const HOME_PATH = '/home';
export const MANUAL_PATH = '/user-manual';

/** Screens the dispatch screen offers to open in an extra window (their -child copies). */
export const WINDOW_SCREENS: Screen[] = ['log', 'monitoring', 'alarm', 'message', 'videoSurveillance'];

/** The separate list of spec §2 (its purpose is not stated; kept as data). */
export const SEPARATE_LIST = ['/home', '/os-monitoring', '/monitoring', '/message', '/maps', '/video-surveillance'];

export const ALL_ROUTES: RouteDef[] = [...SHELL_ROUTES, ...ROUTE_GROUPS.flatMap((g) => g.routes)];

/**
 * The permitted path fragments for a signed-in user (spec §2: "allowed only if the path contains one of a fixed
 * list of permitted fragments"). The list is every route's first path segment, without the -child suffix.
 */
export const PERMITTED_FRAGMENTS: string[] = [
  ...new Set([...ALL_ROUTES.map((r) => r.path.replace(/-child(-\d+)?$/, '')), ...Object.keys(REDIRECTS).filter((p) => p !== '/')]),
];

export function findRoute(pathname: string): RouteDef | undefined {
  const p = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return ALL_ROUTES.find((r) => r.path === p);
}

/** The screens this version builds (app/screens.ts maps each to its component); every other screen shows "not yet". */
export const BUILT_SCREENS = ['home', 'voiceList', 'userManual', 'notFound', 'log', 'alarm', 'lonework', 'emergcyAlarmReport', 'emergcyAlarmData', 'loneworkAlarmData', 'message', 'medias', 'messageData', 'monitoring', 'osMonitoring', 'followMonitoring', 'gpsData', 'fenceAlarmData', 'report', 'videoSurveillance', 'videoRecords', 'indoor', 'online', 'callDurationData', 'patrolStatistic', 'patrolPoint', 'patrolPlan', 'patrolCalendar', 'patrolSys', 'secretKeys', 'theme', 'jobTicketing', 'jobTickData', 'broadcast', 'schoolBus'] as const satisfies readonly Screen[];
export type BuiltScreen = (typeof BUILT_SCREENS)[number];

export function isBuilt(screen: Screen): boolean {
  return (BUILT_SCREENS as readonly Screen[]).includes(screen);
}
