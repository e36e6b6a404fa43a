import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { Tag, Tooltip } from 'antd';
import { fromNow } from '../../../shared/time/locale';
import { trimText } from '../../../shared/utils/text';
import { CALL_SET, terminalKind } from '../../../shared/directory/model';
import { useDirectory } from '../../../shared/directory/store';
import { useMemberCallState, useMonitored, useTerminalTalking } from '../../../shared/voice/rows';
import { BatteryIcon, KIND_ICON, SignalIcon } from './icons';

/** One terminal in the tree. Subscribes to its own terminal only, so a presence update re-renders one row. */
export const TerminalRow = memo(function TerminalRow({ cid, gid }: { cid: string; gid: string }) {
  const { t, i18n } = useTranslation('dispatch');
  const term = useDirectory((s) => s.terminals[cid]);
  const talking = useTerminalTalking(cid);
  const monitored = useMonitored('terminal', cid);
  const callState = useMemberCallState(cid);
  if (!term) return null;
  const online = term.online === '1';
  const kind = terminalKind(term.type);
  const lastSeen = online ? term.lastOnline : term.lastOffline;
  return (
    <span
      className={`trow ${online ? 'trow-on' : 'trow-off'}${talking ? ' trow-talking' : ''}${monitored ? ' trow-monitored' : ''}`}
      data-testid="terminal-row"
      data-cid={cid}
      data-online={term.online}
      data-talking={talking ? '1' : '0'}
      data-call-state={callState ?? ''}
    >
      <Tooltip title={t(`kind.${kind}`)}>
        {term.avatar ? <img className="trow-avatar" src={term.avatar} alt="" /> : <span className="trow-icon">{KIND_ICON[kind]}</span>}
      </Tooltip>
      <span className="trow-name" title={`${term.name} (${cid})`}>
        {trimText(term.name || cid, 22)}
      </span>
      {term.kind === 'sip' && (
        <Tooltip title={t('row.sipHint')}>
          <Tag data-testid="terminal-sip">{t('row.sip')}</Tag>
        </Tooltip>
      )}
      {term.grp === gid && online ? <span className="trow-active" title={t('row.currentGroup')} /> : null}
      {callState && (
        <Tag color={callState === 'inCall' ? 'blue' : 'gold'} data-testid="terminal-call-state">
          {t(`row.${callState}`)}
        </Tag>
      )}
      {term.callSetStatus === CALL_SET.killed && <Tag color="red">{t('callSet.killed')}</Tag>}
      {term.callSetStatus === CALL_SET.stunned && <Tag color="orange">{t('callSet.stunned')}</Tag>}
      <span className="trow-meta">
        {online && <Gauge kind="signal" level={term.signal} Icon={SignalIcon} />}
        {online && <Gauge kind="battery" level={term.battery} Icon={BatteryIcon} />}
        {!online && lastSeen ? <span className="trow-seen">{t('row.lastSeen', { when: fromNow(lastSeen, i18n.language) })}</span> : null}
        <span className={`trow-dot ${online ? 'on' : 'off'}`} aria-label={online ? t('online') : t('offline')} />
      </span>
    </span>
  );
});

/** A device gauge of the row with its value in a tooltip; nothing while the terminal has not reported one (< 0). */
function Gauge({ kind, level, Icon }: { kind: 'signal' | 'battery'; level?: number; Icon: (p: { level: number }) => React.ReactNode }) {
  const { t } = useTranslation('dispatch');
  if (typeof level !== 'number' || level < 0) return null;
  return (
    <Tooltip title={t(`row.${kind}`, { value: level })}>
      <span className={`trow-${kind}`}>
        <Icon level={level} />
      </span>
    </Tooltip>
  );
}
