import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { TeamOutlined, ThunderboltOutlined } from '@ant-design/icons';
import { trimText } from '../../../shared/utils/text';
import { useDirectory } from '../../../shared/directory/store';
import { useGroupTalker, useMonitored } from '../../../shared/voice/rows';
import { groupCounts } from '../tree';
import type { Group } from '../../../shared/directory/model';

export const GroupRow = memo(function GroupRow({ gid, fallback }: { gid: string; fallback?: Group }) {
  const { t } = useTranslation('dispatch');
  const group = useDirectory((s) => s.groups[gid]) ?? fallback;
  // A string selector: the row re-renders only when the counts change.
  const counts = useDirectory((s) => {
    const g = s.groups[gid] ?? fallback;
    if (!g) return '';
    const c = groupCounts(g, s.terminals);
    return `${c.online}/${c.total}`;
  });
  const talker = useGroupTalker(gid);
  const monitored = useMonitored('group', gid);
  if (!group) return null;
  return (
    <span className={`grow${talker ? ' grow-talking' : ''}${monitored ? ' grow-monitored' : ''}`} data-testid="group-row" data-gid={gid} data-kind={group.kind} data-talker={talker ?? ''}>
      <span className="grow-icon" style={{ color: group.color || undefined }}>
        {group.kind === 'temp' ? <ThunderboltOutlined /> : <TeamOutlined />}
      </span>
      <span className="grow-name" title={group.name}>
        {trimText(group.name, 24)}
      </span>
      {group.kind === 'temp' && (
        <span className="grow-temp" data-testid="group-creator" data-creator={group.creator ?? ''}>
          {group.creatorName ? t('group.tempBy', { name: trimText(group.creatorName, 16) }) : t('group.temp')}
        </span>
      )}
      {talker && <span className="grow-talker">🔊 {trimText(talker, 16)}</span>}
      {counts && <span className="grow-count">{counts}</span>}
    </span>
  );
});
