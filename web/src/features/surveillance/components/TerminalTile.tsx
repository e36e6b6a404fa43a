// A grid tile that monitors a terminal's camera (video monitoring, docs/video.md §3): dropping a terminal on a tile
// starts it, clearing the tile or dropping something else stops it. The session lives in the shared video store
// (marked as a tile's, so the video call window leaves it out); the tile says why it has no picture.
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Space, Tooltip } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { forgetVideo, startConsoleVideo, startVideoMonitor, useVideo } from '../../../shared/video/store';
import { monitorReason } from '../store';
import { dropTarget, FullscreenAndClear } from './Tile';

interface Props {
  index: number;
  msId: string;
  name: string;
  selected: boolean;
  onSelect(): void;
  onDrop(id: string): void;
  onClear(): void;
}

export function TerminalTile({ index, msId, name, selected, onSelect, onDrop, onClear }: Props) {
  const { t } = useTranslation('surveillance');
  const box = useRef<HTMLDivElement>(null);
  const video = useRef<HTMLVideoElement>(null);
  const [callId, setCallId] = useState<string>();
  const [attempt, setAttempt] = useState(0);
  const [playing, setPlaying] = useState(false);
  const session = useVideo((s) => (callId ? s.sessions[callId] : undefined));
  const remote = session?.media?.remote;

  // One monitoring per terminal on the tile; stopped when the tile lets go of it.
  useEffect(() => {
    startConsoleVideo();
    let gone = false;
    let id: string | undefined;
    void startVideoMonitor(msId, name, { tile: true }).then((cid) => {
      id = cid;
      if (gone) forgetVideo(cid);
      else setCallId(cid);
    });
    return () => {
      gone = true;
      if (id) forgetVideo(id);
      setCallId(undefined);
      setPlaying(false);
    };
  }, [msId, name, attempt]);

  useEffect(() => {
    const el = video.current;
    if (!el) return;
    el.srcObject = remote ?? null;
  }, [remote]);

  const reason = monitorReason(session, playing);
  const ended = session?.view.state === 'ended';
  return (
    <div ref={box} className={`sv-tile${selected ? ' sv-tile-selected' : ''}`} data-testid={`tile-${index}`} data-terminal={msId}
      data-call-id={callId ?? ''} onClick={onSelect} {...dropTarget(onDrop)}>
      <video ref={video} className="sv-video" autoPlay muted playsInline onPlaying={() => setPlaying(true)}
        style={{ visibility: reason ? 'hidden' : 'visible' }} data-testid="terminal-tile-video" />
      {reason && (
        <div className="sv-reason" role="status" data-testid="terminal-tile-reason" data-reason={reason}>
          {t(reason, { defaultValue: t('reason.failed') })}
        </div>
      )}
      <div className="sv-bar">
        <span className="sv-name">{t('tile.monitoring', { name: name || msId })}</span>
        <Space size={2}>
          {ended && (
            <Tooltip title={t('actions.retry')}>
              <Button size="small" type="text" icon={<ReloadOutlined />} aria-label={t('actions.retry')}
                onClick={(e) => { e.stopPropagation(); setAttempt((a) => a + 1); }} />
            </Tooltip>
          )}
          <FullscreenAndClear box={box} onClear={onClear} />
        </Space>
      </div>
    </div>
  );
}
