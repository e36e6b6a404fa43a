// /video-surveillance and /video-surveillance-child: the camera group as a tree, a grid of 1/4/9/16 tiles (drag a
// camera onto a tile, or click it for the selected tile), each tile with full screen, snapshot and recording, and
// the reason it has no picture; cameras are added, edited and deleted here. Terminals with a camera (apps and
// camera terminals) are listed under the cameras: dragged onto a tile, a terminal is monitored there (video
// monitoring, docs/video.md §3).
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Link, useLocation } from 'react-router';
import { Alert, App, Badge, Button, Empty, Popconfirm, Segmented, Space, Tooltip, Typography } from 'antd';
import { DeleteOutlined, EditOutlined, HistoryOutlined, MobileOutlined, PlusOutlined, VideoCameraOutlined } from '@ant-design/icons';
import { live } from '../../../shared/socket/live';
import { useLiveQueries } from '../../../shared/socket/useLiveQueries';
import { useErrorText } from '../../../shared/errorText';
import { showCameraGroup } from '../../../shared/access/features';
import { useGateContext } from '../../../shared/access/gate';
import { cameraApi, cameraKeys, CAMERA_EVENTS, LAYOUTS, type Camera, type CameraInput, type Layout, type StateEvent } from '../api';
import { dotOf, place, resize, TERMINAL_DRAG_TYPE, terminalTile, tileTerminal, useStreams } from '../store';
import { DRAG_TYPE, Tile } from '../components/Tile';
import { CameraDialog } from '../components/CameraDialog';
import { TerminalTile } from '../components/TerminalTile';
import { useDirectory } from '../../../shared/directory/store';
import { useDirectoryLoaded } from '../../../shared/directory/choices';
import { cameraCapable } from '../../../shared/video/store';
import '../surveillance.css';

const LAYOUT_KEY = 'tenfour.surveillance.layout';

function savedLayout(): { n: Layout; tiles: (string | null)[] } {
  try {
    const v = JSON.parse(localStorage.getItem(LAYOUT_KEY) ?? '') as { n: Layout; tiles: (string | null)[] };
    if ((LAYOUTS as readonly number[]).includes(v.n) && Array.isArray(v.tiles)) return { n: v.n, tiles: resize(v.tiles, v.n) };
  } catch {
    /* first visit */
  }
  return { n: 4, tiles: resize([], 4) };
}

export default function SurveillancePage() {
  const { t } = useTranslation('surveillance');
  const { message } = App.useApp();
  const errorText = useErrorText('surveillance');
  const gate = useGateContext();
  const child = useLocation().pathname.endsWith('-child');
  const query = useQuery({ queryKey: cameraKeys.list(), queryFn: cameraApi.list, staleTime: 0 });
  const { refetch } = query;
  const cameras = useMemo(() => query.data?.list ?? [], [query.data]);
  const tool = query.data?.tool ?? true;
  const streams = useStreams((s) => s.streams);
  const [layout, setLayout] = useState(savedLayout);
  const [selected, setSelected] = useState(0);
  const [dialog, setDialog] = useState<{ camera: Camera | null } | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => localStorage.setItem(LAYOUT_KEY, JSON.stringify(layout)), [layout]);
  useEffect(() => {
    if (query.data) useStreams.getState().seed(query.data.list);
  }, [query.data]);
  useLiveQueries(CAMERA_EVENTS, cameraKeys.all);
  useEffect(() => live().on<StateEvent>('camera.state', (e) => useStreams.getState().set(e.data)), []);

  const byStream = useMemo(() => new Map(cameras.map((c) => [c.streamId, c])), [cameras]);
  useDirectoryLoaded();
  const allTerminals = useDirectory((s) => s.terminals);
  const terminals = useMemo(
    () => Object.values(allTerminals).filter((x) => cameraCapable(x.type)).sort((a, b) => a.cid.localeCompare(b.cid)),
    [allTerminals],
  );
  const put = (streamId: string, at?: number) => setLayout((l) => ({ ...l, tiles: place(l.tiles, streamId, at) }));
  const fail = (e: unknown) => message.error(errorText(e));
  const save = async (c: CameraInput) => {
    setSaving(true);
    try {
      if (c.id) await cameraApi.update(c);
      else await cameraApi.add(c);
      setDialog(null);
      message.success(t('done.saved'));
      void refetch();
    } catch (e) {
      fail(e);
    } finally {
      setSaving(false);
    }
  };
  const remove = async (c: Camera) => {
    try {
      await cameraApi.remove(c.id);
      setLayout((l) => ({ ...l, tiles: l.tiles.map((x) => (x === c.streamId ? null : x)) }));
      void refetch();
    } catch (e) {
      fail(e);
    }
  };

  const cols = Math.sqrt(layout.n);
  const groupShown = showCameraGroup(gate);
  return (
    <div className="sv-page" data-testid="surveillance-page">
      <aside className="sv-tree">
        <div className="sv-tree-head">
          <Typography.Text strong>
            <VideoCameraOutlined /> {t('tree.group')} ({cameras.length})
          </Typography.Text>
          <Tooltip title={t('actions.add')}>
            <Button size="small" icon={<PlusOutlined />} aria-label={t('actions.add')} onClick={() => setDialog({ camera: null })} />
          </Tooltip>
        </div>
        {!tool && <Alert type="warning" showIcon title={t('errors.noTool')} />}
        {!groupShown && <Alert type="info" showIcon title={t('tree.hidden')} />}
        {groupShown && cameras.length === 0 && !query.isLoading && <Empty description={t('tree.none')} />}
        {groupShown && (
          <ul className="sv-cameras" role="tree" aria-label={t('tree.group')}>
            {cameras.map((c) => {
              const dot = dotOf(streams[c.streamId] ?? c);
              return (
                <li key={c.id} role="treeitem" aria-selected={false} draggable data-testid={`camera-${c.streamId}`}
                  onDragStart={(e) => {
                    e.dataTransfer.setData(DRAG_TYPE, c.streamId);
                    e.dataTransfer.effectAllowed = 'copy';
                  }}
                  onDoubleClick={() => put(c.streamId, selected)}>
                  <Badge status={dot.badge} title={t(dot.key)} data-testid={`camera-dot-${c.streamId}`} data-dot={dot.key.slice(4)} />
                  <span className="sv-camera-name" title={c.streamUrl.replace(/\/\/[^@/]*@/, '//')}>{c.name}</span>
                  <Space size={0}>
                    <Button size="small" type="link" aria-label={t('actions.show')} onClick={() => put(c.streamId, selected)}>{t('actions.show')}</Button>
                    <Button size="small" type="text" icon={<EditOutlined />} aria-label={t('actions.edit')} onClick={() => setDialog({ camera: c })} />
                    <Popconfirm title={t('confirm.delete', { name: c.name })} onConfirm={() => void remove(c)} okText={t('actions.delete')} cancelText={t('dialog.cancel')}>
                      <Button size="small" type="text" danger icon={<DeleteOutlined />} aria-label={t('actions.delete')} />
                    </Popconfirm>
                  </Space>
                </li>
              );
            })}
          </ul>
        )}
        <div className="sv-tree-head" style={{ marginTop: 12 }}>
          <Typography.Text strong>
            <MobileOutlined /> {t('tree.terminals')} ({terminals.length})
          </Typography.Text>
        </div>
        {terminals.length === 0 && <Typography.Text type="secondary">{t('tree.noTerminals')}</Typography.Text>}
        <ul className="sv-cameras" role="tree" aria-label={t('tree.terminals')}>
          {terminals.map((x) => (
            <li key={x.cid} role="treeitem" aria-selected={false} draggable data-testid={`sv-terminal-${x.cid}`}
              onDragStart={(e) => {
                e.dataTransfer.setData(TERMINAL_DRAG_TYPE, x.cid);
                e.dataTransfer.effectAllowed = 'copy';
              }}
              onDoubleClick={() => put(terminalTile(x.cid), selected)}>
              <Badge status={x.online === '1' ? 'success' : 'default'} />
              <span className="sv-camera-name">{x.name || x.cid}</span>
              <Button size="small" type="link" aria-label={t('actions.monitor')} onClick={() => put(terminalTile(x.cid), selected)}>
                {t('actions.monitor')}
              </Button>
            </li>
          ))}
        </ul>
      </aside>
      <section className="sv-main">
        <div className="sv-toolbar">
          <Segmented<Layout> value={layout.n} options={LAYOUTS.map((n) => ({ value: n, label: t('layout', { n }) }))}
            onChange={(n) => setLayout((l) => ({ n, tiles: resize(l.tiles, n) }))} />
          <Typography.Text type="secondary">{t('hint')}</Typography.Text>
          <Link to={child ? '/video-records-child' : '/video-records'} data-testid="surveillance-records">
            <HistoryOutlined /> {t('records')}
          </Link>
        </div>
        <div className="sv-grid" style={{ gridTemplateColumns: `repeat(${cols}, 1fr)`, gridTemplateRows: `repeat(${cols}, 1fr)` }}>
          {layout.tiles.map((id, i) => {
            const msId = tileTerminal(id);
            const clear = () => setLayout((l) => ({ ...l, tiles: l.tiles.map((x, j) => (j === i ? null : x)) }));
            if (msId)
              return (
                <TerminalTile key={`${i}-${msId}`} index={i} msId={msId} name={allTerminals[msId]?.name ?? ''} selected={selected === i}
                  onSelect={() => setSelected(i)} onDrop={(s) => put(s, i)} onClear={clear} />
              );
            return (
            <Tile key={i} index={i} camera={id ? byStream.get(id) : undefined} tool={tool} selected={selected === i}
              onSelect={() => setSelected(i)} onDrop={(s) => put(s, i)}
              onClear={clear} />
            );
          })}
        </div>
      </section>
      <CameraDialog open={!!dialog} camera={dialog?.camera ?? null} saving={saving} onSave={(c) => void save(c)} onClose={() => setDialog(null)} />
    </div>
  );
}
