// Which component renders each screen. Screens later issues build show the honest "not in this version yet" page.
import type { ComponentType } from 'react';
import type { BuiltScreen, Screen } from '../shared/access/routes';

type Loader = () => Promise<{ default: ComponentType<{ screen: Screen }> }>;

// Keyed by the shared list of built screens, so the two cannot drift apart.
const BUILT: Record<BuiltScreen, Loader> = {
  home: () => import('./pages/HomePage'),
  voiceList: () => import('../features/voice/pages/VoiceListPage'),
  userManual: () => import('../features/manual/pages/ManualPage'),
  notFound: () => import('./pages/NotFoundPage'),
  log: () => import('../features/logs/pages/LogPage'),
  alarm: () => import('../features/alarm/pages/AlarmPage'),
  lonework: () => import('../features/lonework/pages/LoneworkPage'),
  emergcyAlarmReport: () => import('../features/safetyreport/pages/EmergencyReportPage'),
  emergcyAlarmData: () => import('../features/alarm/pages/EmergencyDataPage'),
  loneworkAlarmData: () => import('../features/safetyreport/pages/LoneworkAlarmDataPage'),
  message: () => import('../features/message/pages/MessagePage'),
  medias: () => import('../features/medias/pages/MediasPage'),
  messageData: () => import('../features/messagereport/pages/MessageDataPage'),
  monitoring: () => import('../features/map/pages/MonitoringPage'),
  osMonitoring: () => import('../features/map/pages/MonitoringPage'),
  followMonitoring: () => import('../features/map/pages/FollowPage'),
  gpsData: () => import('../features/gpsreport/pages/GpsDataPage'),
  fenceAlarmData: () => import('../features/gpsreport/pages/FenceAlarmDataPage'),
  report: () => import('../features/reports/pages/ReportPage'),
  broadcast: () => import('../features/broadcast/pages/BroadcastPage'),
};

const notYet: Loader = () => import('./pages/NotYetPage');

export function screenLoader(screen: Screen): Loader {
  return BUILT[screen as BuiltScreen] ?? notYet;
}

