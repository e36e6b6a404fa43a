// Feature gating (spec §6): account type, version, data-source configuration (value 0 disables) and
// "no…Default" overrides decide whether a feature — and so its routes and menu entries — is on.

export type AccountType = '-2' | '1';
export type Version = '0' | '1';

export const FEATURES = {
  allCall: { types: ['-2', '1'], versions: ['1'] },
  broadcast: { types: ['1'], versions: ['1'], menuOrder: 7 },
  customTheme: { types: ['1'], versions: ['1'] },
  environmentMonitor: { types: ['1'], versions: ['1'] },
  fence: { types: ['-2', '1'], versions: ['1'] },
  groupMonitor: { types: ['-2', '1'], versions: ['1'] },
  map: { types: ['-2', '1'], versions: ['0', '1'], menuOrder: 1 },
  historyVoice: { types: ['-2', '1'], versions: ['1'], menuOrder: 3 },
  sosManage: { types: ['-2', '1'], versions: ['1'], menuOrder: 4 },
  indoorLocation: { types: ['-2', '1'], versions: ['1'] },
  jobTicketing: { types: ['-2', '1'], versions: ['1'] },
  keyManage: { types: ['-2', '1'], versions: ['1'] },
  manageGroup: { types: ['-2', '1'], versions: ['1'] },
  mediaManage: { types: ['-2', '1'], versions: ['1'], menuOrder: 6 },
  message: { types: ['-2', '1'], versions: ['0', '1'], menuOrder: 2 },
  missedCalls: { types: ['-2', '1'], versions: ['1'] },
  multiScreen: { types: ['-2', '1'], versions: ['1'] },
  patrol: { types: ['-2', '1'], versions: ['1'] },
  remoteSwitch: { types: ['-2', '1'], versions: ['1'] },
  report: { types: ['-2', '1'], versions: ['0', '1'], menuOrder: 8 },
  logger: { types: ['-2', '1'], versions: ['0', '1'], menuOrder: 9 },
  sendTone: { types: ['-2', '1'], versions: ['1'] },
  tempGroupManage: { types: ['1'], versions: ['1'] },
  terminalManage: { types: ['-2', '1'], versions: ['1'] },
  trackPlayback: { types: ['-2', '1'], versions: ['1'] },
  videoFunction: { types: ['-2', '1'], versions: ['1'] },
  videoMonitor: { types: ['-2', '1'], versions: ['1'], menuOrder: 5 },
  workAlone: { types: ['-2', '1'], versions: ['1'] },
  muteList: { types: ['1'], versions: ['1'] },
} as const satisfies Record<string, { types: readonly AccountType[]; versions: readonly Version[]; menuOrder?: number }>;

export type FeatureKey = keyof typeof FEATURES;

/** Route data-source keys (spec §6 "Route gating by data-source key") and the feature each one stands for. */
export const DS_KEYS = {
  map: 'map',
  keyManage: 'keyManage',
  theme: 'customTheme',
  historyVoice: 'historyVoice',
  sosManage: 'sosManage',
  indoorLocation: 'indoorLocation',
  workAlone: 'workAlone',
  jobTicketing: 'jobTicketing',
  broadcast: 'broadcast',
  mediaManage: 'mediaManage',
  videoMonitor: 'videoMonitor',
  report: 'report',
  logger: 'logger',
  message: 'message',
  patrol: 'patrol',
} as const satisfies Record<string, FeatureKey>;
export type DsKey = keyof typeof DS_KEYS;

export type Flags = Record<string, unknown>;

export interface GateContext {
  accountType: string;
  version: string;
  /** dsConfig of the sign-in answer merged with host client config flags. */
  flags: Flags;
}

const isZero = (v: unknown) => v === 0 || v === '0' || v === false;
const isSet = (v: unknown) => v === 1 || v === '1' || v === true || v === 'true';

/** "noMapDefault" for "map": a host or customer flag that turns the feature off whatever else says. */
export function noDefaultKey(key: string): string {
  return `no${key.charAt(0).toUpperCase()}${key.slice(1)}Default`;
}

/** A data-source key is "not disabled" unless its value is 0 (spec §2: "value 0 disables"). */
export function dsEnabled(key: string, flags: Flags): boolean {
  return !isZero(flags[key]);
}

export function isFeatureEnabled(feature: FeatureKey, ctx: GateContext): boolean {
  const def = FEATURES[feature];
  if (!(def.types as readonly string[]).includes(ctx.accountType)) return false;
  if (!(def.versions as readonly string[]).includes(ctx.version)) return false;
  if (isZero(ctx.flags[feature])) return false;
  if (isSet(ctx.flags[noDefaultKey(feature)])) return false;
  return true;
}

/** A route's data-source key: the key itself must not be 0, and its feature must be enabled. */
export function isDsKeyEnabled(key: DsKey, ctx: GateContext): boolean {
  return dsEnabled(key, ctx.flags) && !isSet(ctx.flags[noDefaultKey(key)]) && isFeatureEnabled(DS_KEYS[key], ctx);
}

/** The camera group shows only with version 1 and video-monitor access (spec §6). */
export function showCameraGroup(ctx: GateContext): boolean {
  return ctx.version === '1' && isFeatureEnabled('videoMonitor', ctx);
}

/** The outside-terminals group shows only when the host configuration enables it (spec §6). */
export function showOutsideGroup(flags: Flags): boolean {
  return isSet(flags.outsideTerminals);
}
