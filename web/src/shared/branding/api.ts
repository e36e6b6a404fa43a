// Host branding and client configuration (spec §1, §3; docs/api.md "Branding and configuration").
import { http } from '../http/client';

export const BRANDING_PATHS = {
  theme: '/ds/pub/theme',
  clientConfig: '/ds/pub/clientConfig',
  staticConfig: '/static/config.json',
} as const;

export interface BrandingRecord {
  sysName?: string;
  logoUrl?: string;
  miniLogoUrl?: string;
  cssUrl?: string;
  themeColor?: string;
  /** Custom theme colours and copyright (docs/api.md "Custom themes"). */
  tabColor?: string;
  subThemeColor?: string;
  weightThemeColor?: string;
  callingColor?: string;
  copyright?: string;
  /** JSON string: {"logoPageBg": "...", "loginFrameColor": "..."} */
  remark?: string;
}

export interface ClientConfig {
  title?: string;
  logo?: string;
  topIco?: string;
  dateFormat: string;
  mapsKey?: string;
  autoLoginKeys: string[];
  version?: string;
  speedUnit: string;
  moreScreenUrl?: string;
  /** Host flags (e.g. outsideTerminals, no…Default overrides); see web/NEEDS.md. */
  [flag: string]: unknown;
}

export const DEFAULT_CLIENT_CONFIG: ClientConfig = { dateFormat: 'MM/dd/yyyy', autoLoginKeys: [], speedUnit: 'mph' };

export const brandingApi = {
  theme: (hostname: string) => http.get<BrandingRecord | null>(BRANDING_PATHS.theme, { hostname }, { anonymous: true, timeoutMs: 10_000 }),
  clientConfig: (hostname: string) => http.get<ClientConfig>(BRANDING_PATHS.clientConfig, { hostname }, { anonymous: true, timeoutMs: 10_000 }),
  /** The static config file, fetched with a timestamp, carries the product version (spec §7). */
  staticConfig: async (): Promise<{ version?: string }> => {
    const res = await fetch(`${BRANDING_PATHS.staticConfig}?t=${Date.now()}`);
    if (!res.ok) return {};
    return (await res.json()) as { version?: string };
  },
};
