// Tile providers (spec §2 "Map providers: Google, Amap, OpenStreet"; §9 map versions Google v3.57, Amap v2.0).
// Raster URL templates; Google and Amap need the maps key of the client config ('no valid map key' otherwise).
import type { Provider } from './gcj';

export type Overlay = 'road' | 'satellite' | 'roadnet';

export interface ProviderDef {
  id: Provider;
  needsKey: boolean;
  templates: Record<Overlay, string | null>;
  subdomains: string[];
  maxzoom: number;
  attribution: string;
}

export const PROVIDERS: Record<Provider, ProviderDef> = {
  osm: {
    id: 'osm',
    needsKey: false,
    templates: {
      road: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
      satellite: 'https://server.arcgisonline.com/ArcGIS/rest/services/World_Imagery/MapServer/tile/{z}/{y}/{x}',
      // OSM has no transparent road overlay: the road net over satellite is the standard layer, translucent.
      roadnet: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
    },
    subdomains: [],
    maxzoom: 19,
    attribution: '© OpenStreetMap contributors',
  },
  google: {
    id: 'google',
    needsKey: true,
    templates: {
      road: 'https://mt{s}.google.com/vt/lyrs=m&hl={lang}&x={x}&y={y}&z={z}&key={key}&v=3.57',
      satellite: 'https://mt{s}.google.com/vt/lyrs=s&x={x}&y={y}&z={z}&key={key}&v=3.57',
      roadnet: 'https://mt{s}.google.com/vt/lyrs=h&hl={lang}&x={x}&y={y}&z={z}&key={key}&v=3.57',
    },
    subdomains: ['0', '1', '2', '3'],
    maxzoom: 20,
    attribution: '© Google',
  },
  amap: {
    id: 'amap',
    needsKey: true,
    templates: {
      road: 'https://webrd0{s}.is.autonavi.com/appmaptile?lang={lang}&size=1&scale=1&style=8&x={x}&y={y}&z={z}&key={key}&v=2.0',
      satellite: 'https://webst0{s}.is.autonavi.com/appmaptile?style=6&x={x}&y={y}&z={z}&key={key}&v=2.0',
      roadnet: 'https://webst0{s}.is.autonavi.com/appmaptile?style=8&x={x}&y={y}&z={z}&key={key}&v=2.0',
    },
    subdomains: ['1', '2', '3', '4'],
    maxzoom: 18,
    attribution: '© AutoNavi',
  },
};

/**
 * The maps key for a provider from the client config's `mapsKey`: a plain key, a JSON object
 * `{"google": "…", "amap": "…"}`, or `google:…;amap:…`. Returns undefined when there is no valid key.
 */
export function mapsKeyFor(raw: unknown, provider: Provider): string | undefined {
  if (typeof raw !== 'string' || !raw.trim()) return undefined;
  const s = raw.trim();
  let key: string | undefined;
  if (s.startsWith('{')) {
    try {
      const o = JSON.parse(s) as Record<string, unknown>;
      key = typeof o[provider] === 'string' ? (o[provider] as string) : undefined;
    } catch {
      return undefined;
    }
  } else if (/^(google|amap|osm)\s*:/i.test(s)) {
    const m = s.split(/[;,]/).map((p) => p.split(':').map((x) => x.trim())).find(([k]) => k?.toLowerCase() === provider);
    key = m?.[1];
  } else key = s;
  return key && isValidKey(key) ? key : undefined;
}

/** A maps key is 8–128 characters of letters, digits, '-' and '_' (what Google and Amap issue). */
export function isValidKey(key: string): boolean {
  return /^[A-Za-z0-9_-]{8,128}$/.test(key);
}

const LANGS: Record<Provider, Record<string, string>> = {
  osm: {},
  google: { 'zh-CN': 'zh-CN', 'tr-TR': 'tr', 'es-ES': 'es', 'fr-FR': 'fr', 'ru-RU': 'ru', 'en-US': 'en' },
  amap: { 'zh-CN': 'zh_cn', 'en-US': 'en' },
};

/** The tile URLs of one overlay (subdomains expanded), or [] when the provider has none or lacks its key. */
export function tileUrls(provider: Provider, overlay: Overlay, key: string | undefined, language: string): string[] {
  const def = PROVIDERS[provider];
  const tpl = def.templates[overlay];
  if (!tpl || (def.needsKey && !key)) return [];
  const lang = LANGS[provider][language] ?? (provider === 'amap' ? 'zh_cn' : 'en');
  const filled = tpl.replace('{key}', encodeURIComponent(key ?? '')).replace('{lang}', lang);
  return def.subdomains.length ? def.subdomains.map((s) => filled.replace('{s}', s)) : [filled];
}

export interface ProviderChoice {
  /** What is shown: the chosen provider, or OSM when the chosen one has no valid key. */
  provider: Provider;
  requested: Provider;
  key?: string;
  /** The chosen provider needs a key and there is none: 'no valid map key'. */
  noKey: boolean;
}

export function chooseProvider(requested: Provider, rawKey: unknown): ProviderChoice {
  if (!PROVIDERS[requested].needsKey) return { provider: requested, requested, noKey: false };
  const key = mapsKeyFor(rawKey, requested);
  return key ? { provider: requested, requested, key, noKey: false } : { provider: 'osm', requested, noKey: true };
}
