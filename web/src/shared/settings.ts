import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import { detectLanguage, type Language } from '../i18n/languages';
import type { NoticeSound } from './sound';

// Stored settings (spec §3) with the spec's defaults. Kept in localStorage under one key.
export const THEMES = ['dark', 'light', 'moonSilver', 'phantomBlack'] as const;
export type Theme = (typeof THEMES)[number];
export const PRIMARY_COLORS = ['blue', 'green', 'redsea', 'sfsp', 'safe'] as const;
export type PrimaryColor = (typeof PRIMARY_COLORS)[number];
export const PRIMARY_HEX: Record<PrimaryColor, string> = {
  blue: '#1677ff',
  green: '#23a455',
  redsea: '#d9363e',
  sfsp: '#0e8a9a',
  safe: '#e8830c',
};
export const MAP_TYPES = ['google', 'amap', 'osm'] as const;
export type MapType = (typeof MAP_TYPES)[number];
/** Playback priority choices (docs/voice.md §4); the first is the default: it never cuts away from the dispatcher's groups. */
export const AUDIO_PRIORITIES = ['ownGroup', 'first', 'latest', 'dispatcherFirst'] as const;
export type AudioPriority = (typeof AUDIO_PRIORITIES)[number];
export const SETTINGS_KEY = 'tenfour.settings';

export interface QuickKeys {
  ptt: string;
  hangup: string;
  mute: string;
}

export interface Sounds {
  alarm: boolean;
  message: boolean;
  callTone: boolean;
}

export interface Settings {
  volume: number;
  alarmVolume: number;
  noticeVolume: number;
  videoCallVolume: number;
  /** Default light in stored settings (spec §3). The shell uses dark when nothing was ever stored. */
  theme: Theme;
  primaryColor: PrimaryColor;
  hideOffline: boolean;
  hideDispatcher: boolean;
  muteStatus: boolean;
  rememberPassword: boolean;
  language: Language;
  viewSize: 'medium';
  quickKeys: QuickKeys;
  sounds: Sounds;
  /** What rings for a notice (a new message), 'off' for silence (shared/sound.ts NOTICE_SOUNDS). */
  noticeSound: NoticeSound;
  mapType: MapType;
  audioPriority: AudioPriority;
}

export const DEFAULT_SETTINGS: Settings = {
  volume: 60,
  alarmVolume: 60,
  noticeVolume: 60,
  videoCallVolume: 60,
  theme: 'light',
  primaryColor: 'blue',
  hideOffline: false,
  hideDispatcher: false,
  muteStatus: false,
  rememberPassword: false,
  language: 'en-US',
  viewSize: 'medium',
  quickKeys: { ptt: 'Space', hangup: 'Escape', mute: 'KeyM' },
  sounds: { alarm: true, message: true, callTone: true },
  noticeSound: 'chime',
  mapType: 'osm',
  audioPriority: 'ownGroup',
};

/** The theme the shell uses: the stored one, or dark when settings were never stored. */
export function shellTheme(stored: Partial<Settings> | undefined): Theme {
  return stored?.theme ?? 'dark';
}

interface SettingsState extends Settings {
  /** False until the user (or sign-in) has stored settings at least once. */
  stored: boolean;
  update: (patch: Partial<Settings>) => void;
}

function browserLanguages(): readonly string[] {
  return typeof navigator === 'undefined' ? [] : navigator.languages?.length ? navigator.languages : [navigator.language];
}

export const useSettings = create<SettingsState>()(
  persist(
    (set) => ({
      ...DEFAULT_SETTINGS,
      theme: 'dark',
      language: detectLanguage(browserLanguages()),
      stored: false,
      update: (patch) => set({ ...patch, stored: true }),
    }),
    {
      name: SETTINGS_KEY,
      version: 3,
      partialize: ({ update: _u, ...rest }) => rest,
      // Version 1 stored "latest" as the default priority (it cut away from the dispatcher's own group mid-burst);
      // nobody could tell it from a choice, so it becomes the new default. Version 2 had a notice sound switch that
      // rang nothing: switched off, it becomes the sound 'off'.
      migrate: (persisted, version) => {
        let p = (persisted ?? {}) as Partial<SettingsState> & { sounds?: { notice?: boolean } };
        if (version < 2 && p.audioPriority === 'latest') p = { ...p, audioPriority: 'ownGroup' };
        if (version < 3 && p.sounds?.notice === false) p = { ...p, noticeSound: 'off' };
        // merge() below fills in whatever the stored copy lacks.
        return p as SettingsState;
      },
      merge: (persisted, current) => {
        const p = (persisted ?? {}) as Partial<SettingsState>;
        // Stored settings default to light (spec §3); with nothing stored the shell shows dark.
        return { ...current, ...DEFAULT_SETTINGS, language: current.language, ...p, theme: p.stored ? (p.theme ?? 'light') : 'dark' };
      },
    },
  ),
);
