// Typed client of the /gps-data and /fence-alarm-data reports (docs/geo.md "GPS report", "Alarm engine").
import { http } from '../../shared/http/client';
import { queryKeys } from '../../shared/queryKeys';
import type { TrackPoint } from '../../shared/geo/units';

export const REPORT_PATHS = {
  gpsData: '/ds/report/findGpsDataPost',
  fenceAlarmCount: '/ds/report/findFenceAlarmCountPost',
} as const;

/** A position row: a track point (speed in m/s) with its terminal. */
export interface GpsRow extends Pick<TrackPoint, 'lat' | 'lng' | 'speed' | 'direction' | 'altitude' | 'time'> {
  msId: string;
  name: string;
}

export interface AlarmCountRow {
  msId?: string;
  msName?: string;
  fenceid?: string;
  fenceName?: string;
  count: number;
  leave: number;
  enter: number;
  closed: number;
}

export const GPS_EXPORT_PAGE = 5000;

export const reportApi = {
  gpsData: (q: { msIds: string[]; sTime: number; eTime: number; pageNo: number; pageSize: number }) =>
    http.post<{ total: number; list: GpsRow[] }>(REPORT_PATHS.gpsData, q),
  fenceAlarmCount: (q: { msIds?: string[]; sTime: number; eTime: number; groupBy?: 'fence' }) =>
    http.post<{ total: number; list: AlarmCountRow[] }>(REPORT_PATHS.fenceAlarmCount, q),
};

export const reportKeys = queryKeys('report', ['gps', 'fenceAlarms', 'fenceAlarmRecords']);
