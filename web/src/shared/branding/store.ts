import { create } from 'zustand';
import { DEFAULT_CLIENT_CONFIG, type BrandingRecord, type ClientConfig } from './api';

/** A host's branding as the console uses it: the record's fields (blank ones absent) with its remark read. */
export type Branding = Omit<BrandingRecord, 'remark'> & { logoPageBg?: string; loginFrameColor?: string };

/** The record's fields a Branding keeps as they are. */
const RECORD_FIELDS = [
  'sysName', 'logoUrl', 'miniLogoUrl', 'cssUrl', 'themeColor', 'tabColor', 'subThemeColor', 'weightThemeColor',
  'callingColor', 'copyright',
] as const satisfies readonly (keyof BrandingRecord)[];

export function parseBranding(r: BrandingRecord | null | undefined): Branding | null {
  if (!r) return null;
  let remark: { logoPageBg?: string; loginFrameColor?: string } = {};
  try {
    remark = r.remark ? (JSON.parse(r.remark) as typeof remark) : {};
  } catch {
    /* a malformed remark only loses the login background and frame colour */
  }
  const b: Branding = {};
  for (const k of RECORD_FIELDS) b[k] = r[k] || undefined;
  b.logoPageBg = remark.logoPageBg || undefined;
  b.loginFrameColor = remark.loginFrameColor || undefined;
  return b;
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
