// Columns of the SOS alarm tables (/alarm, /emergcy-alarm-data) and the matching spreadsheet rows.
import type { TFunction } from 'i18next';
import type { ColumnsType } from 'antd/es/table';
import { Typography } from 'antd';
import type { SosAlarm } from '../../../shared/alarms/sos';
import { positionText } from '../hooks';
import { responseDelay } from '../history';
import { clock, formatZoned } from '../../../shared/time/zone';
import type { SheetColumn } from '../../../shared/utils/xlsx';
import { SosStateTag } from './SosStateTag';

const typeLabel = (t: TFunction, type: string) => t(`type.${type}`, { defaultValue: t('type.other', { type }) });
const delayText = (a: SosAlarm) => (responseDelay(a) ? clock(responseDelay(a)) : '—');
const who = (name: string, id: string) => (name || id ? `${name || id}${name && id && name !== id ? ` (${id})` : ''}` : '—');

export function alarmColumns(t: TFunction, dateTime: string): ColumnsType<SosAlarm> {
  return [
    { key: 'terminal', title: t('col.terminal'), render: (_, a) => who(a.msName, a.msId), width: 170, fixed: 'left' },
    { key: 'type', title: t('col.type'), render: (_, a) => typeLabel(t, a.type), width: 110 },
    { key: 'time', title: t('col.time'), render: (_, a) => formatZoned(a.time, dateTime), width: 170 },
    { key: 'position', title: t('col.position'), render: (_, a) => positionText(a.lat, a.lng), width: 170 },
    { key: 'state', title: t('col.state'), render: (_, a) => <SosStateTag state={a.state} />, width: 110 },
    { key: 'responder', title: t('col.responder'), render: (_, a) => who(a.responderName, a.responder), width: 150 },
    { key: 'responseTime', title: t('col.responseTime'), render: (_, a) => formatZoned(a.responseTime, dateTime), width: 170 },
    { key: 'delay', title: t('col.delay'), render: (_, a) => delayText(a), width: 100 },
    { key: 'closer', title: t('col.closer'), render: (_, a) => who(a.closerName, a.closer), width: 150 },
    { key: 'closeTime', title: t('col.closeTime'), render: (_, a) => formatZoned(a.closeTime, dateTime), width: 170 },
    { key: 'closeKind', title: t('col.closeKind'), render: (_, a) => (a.closeKind ? t(`closeKind.${a.closeKind}`) : '—'), width: 150 },
    { key: 'remark', title: t('col.remark'), render: (_, a) => <Typography.Text ellipsis={{ tooltip: a.remark }} style={{ maxWidth: 220 }}>{a.remark || '—'}</Typography.Text>, width: 220 },
  ];
}

export function alarmSheet(t: TFunction, dateTime: string): { columns: SheetColumn[]; row: (a: SosAlarm) => Record<string, string | number> } {
  return {
    columns: [
      { header: t('col.terminalId'), key: 'msId', width: 12 },
      { header: t('col.terminal'), key: 'msName', width: 20 },
      { header: t('col.type'), key: 'type', width: 14 },
      { header: t('col.time'), key: 'time', width: 20 },
      { header: t('col.position'), key: 'position', width: 22 },
      { header: t('col.state'), key: 'state', width: 14 },
      { header: t('col.responder'), key: 'responder', width: 18 },
      { header: t('col.responseTime'), key: 'responseTime', width: 20 },
      { header: t('col.delay'), key: 'delay', width: 12 },
      { header: t('col.closer'), key: 'closer', width: 18 },
      { header: t('col.closeTime'), key: 'closeTime', width: 20 },
      { header: t('col.closeKind'), key: 'closeKind', width: 18 },
      { header: t('col.remark'), key: 'remark', width: 40 },
    ],
    row: (a) => ({
      msId: a.msId,
      msName: a.msName,
      type: typeLabel(t, a.type),
      time: formatZoned(a.time, dateTime),
      position: positionText(a.lat, a.lng),
      state: t(`state.${a.state}`),
      responder: a.responderName || a.responder || '',
      responseTime: a.responseTime ? formatZoned(a.responseTime, dateTime) : '',
      delay: responseDelay(a) ? clock(responseDelay(a)) : '',
      closer: a.closerName || a.closer || '',
      closeTime: a.closeTime ? formatZoned(a.closeTime, dateTime) : '',
      closeKind: a.closeKind ? t(`closeKind.${a.closeKind}`) : '',
      remark: a.remark,
    }),
  };
}
