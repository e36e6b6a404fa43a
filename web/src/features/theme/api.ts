// Custom themes per host (docs/api.md "Custom themes", ADR 0021): the customer's host names and the skin of each,
// which is what that host's login page and console show.
import { http, type Page } from '../../shared/http/client';
import { queryKeys } from '../../shared/queryKeys';

/** Every skin field of spec §3. Logos are data:image/png;base64 URLs (or "" for none). */
export interface Theme {
  hostname: string;
  sysName: string;
  themeColor: string;
  tabColor: string;
  subThemeColor: string;
  weightThemeColor: string;
  callingColor: string;
  loginFrameColor: string;
  miniLogoUrl: string;
  logoUrl: string;
  copyright: string;
}

export interface HostEntry {
  hostname: string;
  hasTheme: boolean;
}

export const THEME_PATHS = {
  save: '/ds/custom/customTheme',
  find: '/ds/custom/findTheme',
  remove: '/ds/custom/deleteTheme',
  hosts: '/ds/custom/getClientHostList',
} as const;

/** A new theme's starting point: the console's own look, with spec §3's dark-teal tab colour. */
export function blankTheme(hostname: string): Theme {
  return {
    hostname,
    sysName: '',
    themeColor: '#1677ff',
    tabColor: '#00474f',
    subThemeColor: '',
    weightThemeColor: '',
    callingColor: '#cf1322',
    loginFrameColor: '#ffffff',
    miniLogoUrl: '',
    logoUrl: '',
    copyright: '',
  };
}

export const themeApi = {
  hosts: () => http.get<Page<HostEntry>>(THEME_PATHS.hosts).then((p) => p.list),
  find: (hostname?: string) => http.get<Page<Theme>>(THEME_PATHS.find, { hostname }).then((p) => p.list),
  save: (t: Theme) => http.post<Theme>(THEME_PATHS.save, t),
  remove: (hostname: string) => http.del<{ hostname: string }>(THEME_PATHS.remove, { hostname }),
};

export const themeKeys = queryKeys('theme', ['hosts', 'themes']);
