import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Descriptions, Empty, Space, Tag } from 'antd';
import dayjs from '../../../shared/utils/dayjs';
import { useBranding, useDateTimeFormat } from '../../../shared/branding/store';
import { CALL_SET, terminalKind } from '../../../shared/directory/model';
import { useDirectory } from '../../../shared/directory/store';
import { convertSpeed } from '../units';
import { KIND_ICON } from './icons';
import { TerminalActionBar } from '../../../shared/terminalActions/TerminalActions';
import { PositionAge } from '../../../shared/geo/PositionAge';
import { OnBoard } from '../../../shared/schoolbus/OnBoard';
import { useNavigate } from 'react-router';
import { isDsKeyEnabled, isFeatureEnabled } from '../../../shared/access/features';
import { useGateContext } from '../../../shared/access/gate';

/** The panel's management actions (the tree menu's, under the terminal-manage switch). */
const MANAGE = ['rename', 'move', 'switch', 'avatar', 'stun', 'kill', 'revive'] as const;

/**
 * The terminal info panel (spec §2 "Other screens and dialogs"): the name, then the terminal action set (call,
 * message, video) before any detail, so the common actions are in sight without scrolling; a bus's students on
 * board right below them (a list above the name hid whose panel it was); management below.
 */
export function TerminalInfoPanel({ cid, onAction, extra }: { cid?: string; onAction: (action: string) => void; extra?: ReactNode }) {
  const { t } = useTranslation('dispatch');
  const term = useDirectory((s) => (cid ? s.terminals[cid] : undefined));
  const groupName = useDirectory((s) => (term ? s.groups[term.grp]?.name : undefined));
  const speedUnit = useBranding((s) => s.clientConfig.speedUnit);
  const dateTime = useDateTimeFormat();
  const navigate = useNavigate();
  const gate = useGateContext();
  const jobs = isDsKeyEnabled('jobTicketing', gate);
  // The management buttons obey the terminal-manage switch, as the tree's menu does (issue 33: they showed to all).
  const manage = isFeatureEnabled('terminalManage', gate);
  const fmt = (ms?: number) => (ms ? dayjs(ms).format(dateTime) : '—');
  if (!term) return <Empty description={t('info.none')} data-testid="info-empty" />;
  const kind = terminalKind(term.type);
  const status = term.callSetStatus === CALL_SET.killed ? 'killed' : term.callSetStatus === CALL_SET.stunned ? 'stunned' : 'active';
  return (
    <div data-testid="terminal-info" data-cid={term.cid}>
      <div className="tinfo-head">
        <Space>
          {KIND_ICON[kind]}
          <strong>{term.name}</strong>
          <Tag color={term.online === '1' ? 'green' : 'default'} data-testid="info-online">
            {term.online === '1' ? t('online') : t('offline')}
          </Tag>
        </Space>
        <TerminalActionBar cid={term.cid} />
      </div>
      <OnBoard busId={term.cid} />
      <Descriptions
        size="small"
        column={1}
        items={[
          { key: 'cid', label: t('info.id'), children: term.cid },
          { key: 'type', label: t('info.type'), children: t(`kind.${kind}`) },
          { key: 'group', label: t('info.group'), children: groupName ?? term.grp ?? '—' },
          { key: 'model', label: t('info.model'), children: term.model || '—' },
          { key: 'battery', label: t('info.battery'), children: typeof term.battery === 'number' && term.battery >= 0 ? `${term.battery}%` : '—' },
          { key: 'signal', label: t('info.signal'), children: typeof term.signal === 'number' && term.signal >= 0 ? `${term.signal}/5` : '—' },
          { key: 'pos', label: t('info.position'), children: <PositionAge lat={term.lat} lng={term.lng} at={term.lastGps} /> },
          { key: 'speed', label: t('info.speed'), children: typeof term.speed === 'number' ? `${convertSpeed(term.speed, speedUnit).toFixed(1)} ${speedUnit}` : '—' },
          { key: 'gps', label: t('info.lastGps'), children: fmt(term.lastGps) },
          { key: 'status', label: t('info.callSet'), children: <Tag color={status === 'killed' ? 'red' : status === 'stunned' ? 'orange' : 'green'}>{t(`callSet.${status}`)}</Tag> },
          { key: 'on', label: t('info.lastOnline'), children: fmt(term.lastOnline) },
          { key: 'off', label: t('info.lastOffline'), children: fmt(term.lastOffline) },
        ]}
      />
      <Space wrap style={{ marginTop: 8 }}>
        {manage &&
          MANAGE.map((a) => (
            <Button key={a} size="small" danger={a === 'kill'} onClick={() => onAction(a)} data-testid={`info-${a}`}>
              {t(`actions.${a}`)}
            </Button>
          ))}
        {extra}
        {jobs && term.type !== '20' && (
          <Button size="small" type="primary" ghost onClick={() => navigate(`/job-ticketing?msIds=${encodeURIComponent(term.cid)}`)} data-testid="info-job">
            {t('actions.jobTicket')}
          </Button>
        )}
      </Space>
    </div>
  );
}
