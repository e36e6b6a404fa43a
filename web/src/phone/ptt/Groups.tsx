import { t } from '../i18n';
import { Sheet } from '../ui/Sheet';
import { switchGroup, usePtt } from './ptt';
import CheckOutlined from '@ant-design/icons-svg/es/asn/CheckOutlined';
import DownOutlined from '@ant-design/icons-svg/es/asn/DownOutlined';
import { Icon } from '../../shared/icons/Icon';

/** The talk group bar: opens the group sheet. */
export function GroupBar({ onOpen }: { onOpen: () => void }) {
  const groups = usePtt((s) => s.groups);
  const ptt = usePtt((s) => s.pttGroup);
  const name = groups.find((g) => g.gid === ptt)?.name ?? (ptt ? ptt : t('groups.none'));
  return (
    <button className="p-groupbar" onClick={onOpen} data-testid="phone-group" data-gid={ptt}>
      <span className="p-muted">{t('groups.title')}</span>
      <strong>{name}</strong>
      <Icon def={DownOutlined} />
    </button>
  );
}

export function GroupSheet({ onClose }: { onClose: () => void }) {
  const groups = usePtt((s) => s.groups);
  const ptt = usePtt((s) => s.pttGroup);
  return (
    <Sheet title={t('groups.choose')} onClose={onClose} testid="phone-group-sheet">
      {groups.map((g) => (
        <button
          key={g.gid}
          className={`p-row${g.gid === ptt ? ' p-row-on' : ''}`}
          onClick={() => void switchGroup(g.gid).then(onClose)}
          data-testid="phone-group-option"
          data-gid={g.gid}
        >
          <span>{g.name}</span>
          {g.kind === 'temp' && <span className="p-muted p-small">{t('groups.temp')}</span>}
          {g.gid === ptt && <Icon def={CheckOutlined} />}
        </button>
      ))}
    </Sheet>
  );
}
