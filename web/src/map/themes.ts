// Map themes (spec §2 map tools: normal, dark, moonlight silver, phantom black): colours of the offline basemap
// and the server's street map (streets.ts), and raster paint that restyles whatever tiles the provider serves
// (inverting them for the dark themes).
export const MAP_THEMES = ['normal', 'dark', 'moonlightSilver', 'phantomBlack'] as const;
export type MapTheme = (typeof MAP_THEMES)[number];

export interface ThemeDef {
  sea: string;
  land: string;
  border: string;
  raster: Record<string, number>;
  /** The street map's colours (land and water are land and sea above). */
  streets: { road: string; major: string; casing: string; building: string; park: string };
}

const NEUTRAL = { 'raster-brightness-min': 0, 'raster-brightness-max': 1, 'raster-saturation': 0, 'raster-contrast': 0, 'raster-hue-rotate': 0 };

export const THEMES: Record<MapTheme, ThemeDef> = {
  normal: {
    sea: '#aad3df',
    land: '#f2efe9',
    border: '#9a8f99',
    raster: NEUTRAL,
    streets: { road: '#ffffff', major: '#fcd6a4', casing: '#c8beb2', building: '#d9d0c9', park: '#cdebb0' },
  },
  dark: {
    sea: '#0e2233',
    land: '#1f2b37',
    border: '#50657a',
    raster: { ...NEUTRAL, 'raster-brightness-min': 1, 'raster-brightness-max': 0.05, 'raster-hue-rotate': 180, 'raster-saturation': -0.3, 'raster-contrast': 0.1 },
    streets: { road: '#3b4b5c', major: '#5d6f82', casing: '#141d26', building: '#2a3744', park: '#22382d' },
  },
  moonlightSilver: {
    sea: '#c4ced8',
    land: '#eceff2',
    border: '#a3acb6',
    raster: { ...NEUTRAL, 'raster-saturation': -0.9, 'raster-brightness-min': 0.12, 'raster-contrast': -0.1 },
    streets: { road: '#ffffff', major: '#dfe4e9', casing: '#b4bcc5', building: '#d6dbe0', park: '#dfe5e2' },
  },
  phantomBlack: {
    sea: '#020202',
    land: '#161616',
    border: '#3c3c3c',
    raster: { ...NEUTRAL, 'raster-brightness-min': 1, 'raster-brightness-max': 0, 'raster-saturation': -1, 'raster-contrast': 0.25 },
    streets: { road: '#2e2e2e', major: '#474747', casing: '#050505', building: '#222222', park: '#1c1c1c' },
  },
};

export function isMapTheme(v: unknown): v is MapTheme {
  return typeof v === 'string' && (MAP_THEMES as readonly string[]).includes(v);
}
