// The track being played back, shared by the track panel and the map's track layer.
import { create } from 'zustand';
import type { Track } from '../../shared/geo/api';
import { DEFAULT_PLAY_STATE, Timeline, type PlayState } from '../../shared/geo/playback';

interface TrackState {
  track?: Track;
  timeline?: Timeline;
  frame: number;
  playState: PlayState;
  speed: number;
  follow: boolean;
  load: (t: Track | undefined) => void;
  set: (patch: Partial<Pick<TrackState, 'frame' | 'playState' | 'speed' | 'follow'>>) => void;
}

export const useTrack = create<TrackState>((set) => ({
  frame: 0,
  playState: DEFAULT_PLAY_STATE,
  speed: 1,
  follow: true,
  load: (track) => set({ track, timeline: track ? new Timeline(track.points) : undefined, frame: 0, playState: DEFAULT_PLAY_STATE }),
  set: (patch) => set(patch),
}));
