// Branding loader (spec §1): for location.hostname fetch the branding record unless cached, keep the loading screen
// up meanwhile, wait 1 s more when customised colours apply, dismiss the screen if the request fails.
import { session, readJSON, writeJSON } from '../utils/storage';
import { brandingApi, DEFAULT_CLIENT_CONFIG, type BrandingRecord } from './api';
import { hasCustomColours, parseBranding, useBranding, type Branding } from './store';
import { skinColours, skinVars } from './skin';

export const CUSTOM_COLOUR_DELAY_MS = 1000;
const cacheKey = (host: string) => `tenfour.branding:${host}`;

export function applyDocumentBranding(b: Branding | null): void {
  if (b?.sysName) document.title = b.sysName;
  // The theme's header, calling and accent colours, made readable (skin.ts), for the shell's CSS.
  for (const [k, v] of Object.entries(skinVars(skinColours(b)))) document.documentElement.style.setProperty(k, v);
  if (b?.miniLogoUrl) {
    const link = document.getElementById('app-favicon') as HTMLLinkElement | null;
    if (link) link.href = b.miniLogoUrl;
  }
  if (b?.cssUrl && !document.getElementById('brand-css')) {
    const css = document.createElement('link');
    css.id = 'brand-css';
    css.rel = 'stylesheet';
    css.href = b.cssUrl;
    document.head.appendChild(css);
  }
}

/**
 * Applies a host's branding record now and caches it (the custom-theme editor after saving the theme of the host
 * the console is open at, so the console shows it without a reload).
 */
export function applyBrandingRecord(hostname: string, r: BrandingRecord | null): void {
  writeJSON(session(), cacheKey(hostname), { r });
  const b = parseBranding(r);
  useBranding.setState({ branding: b });
  applyDocumentBranding(b);
}

export function dismissSplash(): void {
  const el = document.getElementById('boot-splash');
  if (!el) return;
  el.style.opacity = '0';
  setTimeout(() => el.remove(), 200);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function loadBranding(hostname = location.hostname): Promise<void> {
  const cfg = brandingApi
    .clientConfig(hostname)
    .then((c) => useBranding.setState({ clientConfig: { ...DEFAULT_CLIENT_CONFIG, ...c, autoLoginKeys: c?.autoLoginKeys ?? [] } }))
    .catch(() => {});
  const ver = brandingApi
    .staticConfig()
    .then((s) => useBranding.setState({ productVersion: s.version }))
    .catch(() => {});
  try {
    let record = readJSON<{ r: BrandingRecord | null }>(session(), cacheKey(hostname));
    if (!record) {
      record = { r: await brandingApi.theme(hostname) };
      writeJSON(session(), cacheKey(hostname), record);
    }
    const b = parseBranding(record.r);
    useBranding.setState({ branding: b });
    applyDocumentBranding(b);
    await Promise.all([cfg, ver]);
    if (hasCustomColours(b)) await sleep(CUSTOM_COLOUR_DELAY_MS);
  } catch {
    await Promise.all([cfg, ver]);
  }
}
