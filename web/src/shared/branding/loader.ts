// Branding loader (spec §1): for location.hostname fetch the branding record unless cached, keep the loading screen
// up meanwhile, wait 1 s more when customised colours apply, dismiss the screen if the request fails.
import { session, readJSON, writeJSON } from '../utils/storage';
import { brandingApi, DEFAULT_CLIENT_CONFIG, type BrandingRecord } from './api';
import { hasCustomColours, parseBranding, useBranding, type Branding } from './store';

export const CUSTOM_COLOUR_DELAY_MS = 1000;
const cacheKey = (host: string) => `tenfour.branding:${host}`;

export function applyDocumentBranding(b: Branding | null): void {
  if (b?.sysName) document.title = b.sysName;
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
