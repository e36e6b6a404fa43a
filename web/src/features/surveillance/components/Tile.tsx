// One grid tile: plays its camera over WebRTC, says why it has no picture, and offers full screen, snapshot and
// recording. Cameras are dropped on it from the camera tree.
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { App, Button, Space, Tooltip } from 'antd';
import { CameraOutlined, CloseOutlined, FullscreenOutlined, VideoCameraAddOutlined, StopOutlined } from '@ant-design/icons';
import { useErrorText } from '../../../shared/errorText';
import { cameraApi, snapshotName, type Camera } from '../api';
import { openPlayer, saveDataUrl, type PlayerHandle } from '../player';
import { acceptsDrop, dropped, noPictureReason, useStreams } from '../store';
import { useDirectory } from '../../../shared/directory/store';
import { cameraCapable } from '../../../shared/video/store';

interface Props {
  index: number;
  camera?: Camera;
  tool: boolean;
  selected: boolean;
  onSelect(): void;
  onDrop(streamId: string): void;
  onClear(): void;
}

export { DRAG_TYPE } from '../store';

/** The two tools every tile has, camera or terminal: full screen (the tile's box) and clear. */
export function FullscreenAndClear({ box, onClear }: { box: React.RefObject<HTMLDivElement | null>; onClear: () => void }) {
  const { t } = useTranslation('surveillance');
  return (
    <>
      <Tooltip title={t('actions.fullscreen')}>
        <Button size="small" type="text" icon={<FullscreenOutlined />} aria-label={t('actions.fullscreen')}
          onClick={(e) => { e.stopPropagation(); void box.current?.requestFullscreen?.(); }} />
      </Tooltip>
      <Tooltip title={t('actions.clear')}>
        <Button size="small" type="text" icon={<CloseOutlined />} aria-label={t('actions.clear')} onClick={(e) => { e.stopPropagation(); onClear(); }} />
      </Tooltip>
    </>
  );
}

/** A tile's drop target: takes a dragged camera or a camera-capable terminal (docs: features/surveillance). */
export function dropTarget(onDrop: (id: string) => void): Pick<React.HTMLAttributes<HTMLDivElement>, 'onDragOver' | 'onDrop'> {
  return {
    onDragOver: (e) => {
      if (acceptsDrop(e.dataTransfer.types)) e.preventDefault();
    },
    onDrop: (e) => {
      const id = dropped((type) => e.dataTransfer.getData(type), canMonitor);
      if (id) {
        e.preventDefault();
        onDrop(id);
      }
    },
  };
}

/** A terminal may be monitored when the directory knows it with a camera-capable type. */
function canMonitor(msId: string): boolean {
  const term = useDirectory.getState().terminals[msId];
  return !!term && cameraCapable(term.type);
}

export function Tile({ index, camera, tool, selected, onSelect, onDrop, onClear }: Props) {
  const { t } = useTranslation('surveillance');
  const { message } = App.useApp();
  const errorText = useErrorText('surveillance');
  const box = useRef<HTMLDivElement>(null);
  const video = useRef<HTMLVideoElement>(null);
  const [playing, setPlaying] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const [busy, setBusy] = useState(false);
  const status = useStreams((s) => (camera ? s.streams[camera.streamId] : undefined));
  const streamId = camera?.streamId;

  // One player per camera on the tile; a new attempt after the connection ends or the stream plays again.
  useEffect(() => {
    const el = video.current;
    if (!streamId || !tool || !el) return;
    let handle: PlayerHandle | undefined;
    let gone = false;
    openPlayer(streamId, () => setTimeout(() => !gone && setAttempt((a) => a + 1), 2000))
      .then((h) => {
        if (gone) return h.close();
        handle = h;
        if (h.state === 'failed') useStreams.getState().set({ streamId, state: h.state, code: h.code, key: h.key });
        el.srcObject = h.stream;
      })
      .catch(() => !gone && setTimeout(() => !gone && setAttempt((a) => a + 1), 3000));
    return () => {
      gone = true;
      handle?.close();
      el.srcObject = null;
      setPlaying(false);
    };
  }, [streamId, tool, attempt]);

  // A stream that recovers (failed → playing) is re-attached: its viewer was kept, frames resume by themselves.
  const reason = camera ? noPictureReason(status, playing, tool) : undefined;

  /** Runs a camera action of the tile, its buttons busy meanwhile; a failure says why. */
  const act = async (action: (c: Camera) => Promise<void>) => {
    if (!camera) return;
    setBusy(true);
    try {
      await action(camera);
    } catch (e) {
      message.error(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  const snap = () =>
    act(async (c) => {
      const s = await cameraApi.snap(c.streamId, snapshotName(c.name));
      saveDataUrl(s.name, s.type, s.data);
      if (s.item) message.success(t('done.snapKept'));
    });
  const record = () =>
    act(async (c) => {
      if (c.recording) {
        await cameraApi.stopRecord(c.streamId);
        message.success(t('done.recordStopped'));
      } else {
        await cameraApi.startRecord(c.streamId);
        message.success(t('done.recordStarted'));
      }
    });

  return (
    <div
      ref={box}
      className={`sv-tile${selected ? ' sv-tile-selected' : ''}`}
      data-testid={`tile-${index}`}
      data-stream={streamId ?? ''}
      onClick={onSelect}
      {...dropTarget(onDrop)}
    >
      <video ref={video} className="sv-video" autoPlay muted playsInline onPlaying={() => setPlaying(true)} style={{ visibility: camera && !reason ? 'visible' : 'hidden' }} />
      {!camera && <div className="sv-empty">{t('tile.empty')}</div>}
      {camera && reason && (
        <div className="sv-reason" role="status">
          {t(reason, { defaultValue: t('reason.failed') })}
        </div>
      )}
      {camera && (
        <div className="sv-bar">
          <span className="sv-name">
            {camera.recording && <span className="sv-rec" aria-label={t('tile.recording')} />}
            {camera.name}
          </span>
          <Space size={2}>
            <Tooltip title={t('actions.snapshot')}>
              <Button size="small" type="text" icon={<CameraOutlined />} aria-label={t('actions.snapshot')} disabled={busy || !tool} onClick={(e) => { e.stopPropagation(); void snap(); }} />
            </Tooltip>
            <Tooltip title={camera.recording ? t('actions.stopRecord') : t('actions.record')}>
              <Button size="small" type="text" danger={camera.recording} icon={camera.recording ? <StopOutlined /> : <VideoCameraAddOutlined />}
                aria-label={camera.recording ? t('actions.stopRecord') : t('actions.record')} disabled={busy || !tool}
                onClick={(e) => { e.stopPropagation(); void record(); }} />
            </Tooltip>
            <FullscreenAndClear box={box} onClear={onClear} />
          </Space>
        </div>
      )}
    </div>
  );
}
