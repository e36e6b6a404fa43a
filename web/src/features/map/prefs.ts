// Map preferences kept in this browser: theme, overlays, eagle eye and which layers show.
import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import type { MapTheme } from '../../map/themes';

export interface MapPrefs {
  theme: MapTheme;
  satellite: boolean;
  roadNet: boolean;
  eagleEye: boolean;
  /** The legend is open. */
  legend: boolean;
  layers: { terminals: boolean; fences: boolean; marks: boolean; offline: boolean };
  update: (patch: Partial<Omit<MapPrefs, 'update'>>) => void;
}

export const useMapPrefs = create<MapPrefs>()(
  persist(
    (set) => ({
      theme: 'normal',
      satellite: false,
      roadNet: false,
      eagleEye: false,
      legend: false,
      layers: { terminals: true, fences: true, marks: true, offline: true },
      update: (patch) => set(patch),
    }),
    { name: 'tenfour.map', version: 1, partialize: ({ update: _u, ...rest }) => rest },
  ),
);
