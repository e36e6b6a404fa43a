// Terminal info on the map (spec §2 "click → terminal info"): state, position and its age, speed, battery, the
// terminal action set (call, message, video — the same as the dispatch screen's) and the map's own track and follow.
import { useTranslation } from 'react-i18next';
import { Button, Card, Descriptions, Space, Tag } from 'antd';
import { AimOutlined, CloseOutlined, NodeIndexOutlined } from '@ant-design/icons';
import dayjs from '../../../shared/utils/dayjs';
import { useBranding, useDateTimeFormat } from '../../../shared/branding/store';
import { useDirectory } from '../../../shared/directory/store';
import { STATE_COLORS, terminalState } from '../../../map/terminalFeatures';
import { currentTalkers } from '../../../shared/geo/live';
import { useOpenSosByTerminal } from '../../../shared/alarms/store';
import { useVoice } from '../../../shared/voice/store';
import { formatSpeed, speedUnitOf } from '../../../shared/geo/units';
import { TerminalActionBar } from '../../../shared/terminalActions/TerminalActions';
import { PositionAge } from '../../../shared/geo/PositionAge';

export type CardAction = 'track' | 'follow';

export function TerminalCard({ cid, onAction, onClose, canTrack }: { cid: string; onAction: (a: CardAction) => void; onClose: () => void; canTrack: boolean }) {
  const { t } = useTranslation('map');
  const term = useDirectory((s) => s.terminals[cid]);
  const group = useDirectory((s) => (term ? s.groups[term.grp]?.name : undefined));
  const sos = useOpenSosByTerminal();
  const voiceTalkers = useVoice((s) => s.talkers);
  const unit = speedUnitOf(useBranding((s) => s.clientConfig.speedUnit));
  const dateTime = useDateTimeFormat();
  if (!term) return null;
  const state = terminalState(term, currentTalkers(voiceTalkers), sos);
  return (
    <Card
      size="small"
      className="map-card map-overlay"
      data-testid="map-terminal-card"
      data-cid={cid}
      data-state={state}
      title={
        <Space>
          <span className="map-state-dot" style={{ background: STATE_COLORS[state] }} />
          {term.name || cid}
          <Tag color={state === 'sos' ? 'red' : state === 'talking' ? 'blue' : state === 'online' ? 'green' : 'default'}>{t(`state.${state}`)}</Tag>
        </Space>
      }
      extra={<Button type="text" size="small" icon={<CloseOutlined />} onClick={onClose} aria-label={t('close')} />}
    >
      <TerminalActionBar cid={cid} />
      <Descriptions
        size="small"
        column={1}
        items={[
          { key: 'id', label: t('card.id'), children: cid },
          { key: 'group', label: t('card.group'), children: group ?? '—' },
          { key: 'pos', label: t('card.position'), children: <PositionAge lat={term.lat} lng={term.lng} at={term.lastGps} /> },
          { key: 'speed', label: t('card.speed'), children: <span data-testid="card-speed">{formatSpeed(term.speed, unit)}</span> },
          { key: 'battery', label: t('card.battery'), children: typeof term.battery === 'number' && term.battery >= 0 ? `${term.battery}%` : '—' },
          { key: 'gps', label: t('card.lastFix'), children: term.lastGps ? dayjs(term.lastGps).format(dateTime) : '—' },
        ]}
      />
      <Space wrap style={{ marginTop: 8 }}>
        {canTrack && (
          <Button size="small" icon={<NodeIndexOutlined />} onClick={() => onAction('track')} data-testid="card-track">
            {t('card.track')}
          </Button>
        )}
        <Button size="small" icon={<AimOutlined />} onClick={() => onAction('follow')} data-testid="card-follow">
          {t('card.follow')}
        </Button>
      </Space>
    </Card>
  );
}
