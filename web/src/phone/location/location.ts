// Location: whether the user wants positions reported (kept on this device), what the Geolocation API says, the
// newest fix and the interval the server sets (param.set gpsInterval). The reporter (reporter.ts) follows this store.
import { create } from 'zustand';
import { local, readJSON, writeJSON } from '../../shared/utils/storage';

export type LocationStatus = 'off' | 'waiting' | 'ok' | 'denied' | 'unsupported';

export interface Fix {
  lat: number;
  lng: number;
  speed?: number;
  direction?: number;
  altitude?: number;
  time: number;
}

export interface LocationState {
  /** The user's choice in the menu (on unless turned off). */
  wanted: boolean;
  state: LocationStatus;
  last?: Fix;
  sentAt?: number;
  /** Position reports sent this session. */
  sent: number;
  /** Seconds between position reports. */
  intervalS: number;
}

export const DEFAULT_GPS_INTERVAL_S = 30;
const LOCATION_KEY = 'tenfour.app.location';

const initial = (): LocationState => ({
  wanted: readJSON<boolean>(local(), LOCATION_KEY) ?? true,
  state: 'off',
  sent: 0,
  intervalS: DEFAULT_GPS_INTERVAL_S,
});

export const useLocation = create<LocationState>(initial);

export function setLocationWanted(on: boolean): void {
  writeJSON(local(), LOCATION_KEY, on);
  useLocation.setState({ wanted: on });
}

/** The server's interval (param.set gpsInterval). */
export function setGpsInterval(seconds: number): void {
  useLocation.setState({ intervalS: seconds });
}

/** What the line under the SOS button shows. */
export function shownStatus(s: Pick<LocationState, 'wanted' | 'state'>): LocationStatus {
  return s.wanted ? s.state : 'off';
}

export function resetLocation(): void {
  useLocation.setState(initial(), true);
}
