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
  videoSurveillance: () => import('../features/surveillance/pages/SurveillancePage'),
  videoRecords: () => import('../features/videorecords/pages/VideoRecordsPage'),
  indoor: () => import('../features/indoor/pages/IndoorPage'),
  online: () => import('../features/activityreport/pages/OnlinePage'),
  callDurationData: () => import('../features/activityreport/pages/CallDurationPage'),
  patrolStatistic: () => import('../features/patrol/pages/PatrolStatisticPage'),
  patrolPoint: () => import('../features/patrol/pages/PatrolPointPage'),
  patrolPlan: () => import('../features/patrol/pages/PatrolPlanPage'),
  patrolCalendar: () => import('../features/patrol/pages/PatrolCalendarPage'),
  patrolSys: () => import('../features/patrol/pages/PatrolSysPage'),
  secretKeys: () => import('../features/secretkeys/pages/SecretKeysPage'),
  theme: () => import('../features/theme/pages/ThemePage'),
  jobTicketing: () => import('../features/jobs/pages/JobTicketingPage'),
  jobTickData: () => import('../features/jobs/pages/JobTickDataPage'),
  broadcast: () => import('../features/broadcast/pages/BroadcastPage'),
  schoolBus: () => import('../features/schoolbus/pages/SchoolBusPage'),
};

const notYet: Loader = () => import('./pages/NotYetPage');

export function screenLoader(screen: Screen): Loader {
  return BUILT[screen as BuiltScreen] ?? notYet;
}

