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

/**
 * The SOS tables' columns at a control room's 1366 and 1600 px (issue 33): each a fixed width with its text on one
 * line, cut with an ellipsis whose tooltip (the cell's title) holds it whole; the table scrolls sideways (DataTable).
 */
export function alarmColumns(t: TFunction, dateTime: string): ColumnsType<SosAlarm> {
  const text = (key: string, width: number, value: (a: SosAlarm) => string) => ({ key, title: t(`col.${key}`), width, ellipsis: true, render: (_: unknown, a: SosAlarm) => value(a) });
  return [
    { ...text('terminal', 170, (a) => who(a.msName, a.msId)), fixed: 'left' },
    text('type', 110, (a) => typeLabel(t, a.type)),
    text('time', 180, (a) => formatZoned(a.time, dateTime)),
    text('position', 160, (a) => positionText(a.lat, a.lng)),
    { key: 'state', title: t('col.state'), render: (_, a) => <SosStateTag state={a.state} />, width: 140 },
    text('responder', 170, (a) => who(a.responderName, a.responder)),
    text('responseTime', 180, (a) => formatZoned(a.responseTime, dateTime)),
    text('delay', 130, delayText),
    text('closer', 170, (a) => who(a.closerName, a.closer)),
    text('closeTime', 180, (a) => formatZoned(a.closeTime, dateTime)),
    text('closeKind', 160, (a) => (a.closeKind ? t(`closeKind.${a.closeKind}`) : '—')),
    {
      key: 'remark',
      title: t('col.remark'),
      width: 240,
      ellipsis: { showTitle: false },
      // A remark is free text, often long: the whole of it in a tooltip rather than the cell's plain title.
      render: (_, a) => (
        <Typography.Text ellipsis={{ tooltip: a.remark }} data-testid="sos-remark">
          {a.remark || '—'}
        </Typography.Text>
      ),
    },
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
