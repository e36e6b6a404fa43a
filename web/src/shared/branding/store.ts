import { create } from 'zustand';
import { DEFAULT_CLIENT_CONFIG, type BrandingRecord, type ClientConfig } from './api';

export interface Branding {
  sysName?: string;
  logoUrl?: string;
  miniLogoUrl?: string;
  cssUrl?: string;
  themeColor?: string;
  tabColor?: string;
  subThemeColor?: string;
  weightThemeColor?: string;
  callingColor?: string;
  copyright?: string;
  logoPageBg?: string;
  loginFrameColor?: string;
}

export function parseBranding(r: BrandingRecord | null | undefined): Branding | null {
  if (!r) return null;
  let remark: { logoPageBg?: string; loginFrameColor?: string } = {};
  try {
    remark = r.remark ? (JSON.parse(r.remark) as typeof remark) : {};
  } catch {
    /* a malformed remark only loses the login background and frame colour */
  }
  return {
    sysName: r.sysName || undefined,
    logoUrl: r.logoUrl || undefined,
    miniLogoUrl: r.miniLogoUrl || undefined,
    cssUrl: r.cssUrl || undefined,
    themeColor: r.themeColor || undefined,
    tabColor: r.tabColor || undefined,
    subThemeColor: r.subThemeColor || undefined,
    weightThemeColor: r.weightThemeColor || undefined,
    callingColor: r.callingColor || undefined,
    copyright: r.copyright || undefined,
    logoPageBg: remark.logoPageBg || undefined,
    loginFrameColor: remark.loginFrameColor || undefined,
  };
}

/** Customised colours make the loading screen wait 1 s more (spec §1). */
export function hasCustomColours(b: Branding | null): boolean {
  return !!(b && (b.themeColor || b.loginFrameColor || b.tabColor || b.callingColor || b.subThemeColor || b.weightThemeColor));
}

interface BrandingState {
  branding: Branding | null;
  clientConfig: ClientConfig;
  productVersion?: string;
}

export const useBranding = create<BrandingState>(() => ({ branding: null, clientConfig: DEFAULT_CLIENT_CONFIG }));

/** The host's date format (client config, default MM/dd/yyyy) in dayjs tokens. */
export function toDayjsFormat(f: string | undefined): string {
  return (f || 'MM/dd/yyyy').replace(/yyyy/g, 'YYYY').replace(/yy/g, 'YY').replace(/dd/g, 'DD');
}

export function useDateTimeFormat(): string {
  return `${toDayjsFormat(useBranding((s) => s.clientConfig.dateFormat))} HH:mm:ss`;
}
