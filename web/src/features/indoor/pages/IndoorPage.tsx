// /indoor: the buildings' floor plans with the terminals on them, live (indoor.position), their history played back,
// and — in edit mode — buildings, floors (plan image, scale), beacons (placed by clicking the plan) and walkable
// areas (polygons drawn corner by corner on the plan; the estimator keeps tracks inside them, ADR 0023).
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Card, Empty, Flex, List, Segmented, Select, Slider, Space, Switch, Tag, Typography } from 'antd';
import { EditOutlined, HistoryOutlined, PauseOutlined, PlusOutlined, PlayCircleOutlined, ReloadOutlined } from '@ant-design/icons';
import { useLiveStatus } from '../../../shared/socket/live';
import { useErrorText } from '../../../shared/errorText';
import { RemoveButton } from '../../../shared/crud/RemoveButton';
import { useTerminalOptions } from '../../../shared/directory/TerminalPicker';
import { formatZoned } from '../../../shared/time/zone';
import { useDateTimeFormat } from '../../../shared/branding/store';
import { indoorApi, indoorKeys, type Area, type Beacon, type Building, type Floor, type Position } from '../api';
import { useIndoor } from '../store';
import { useLiveIndoor } from '../useLiveIndoor';
import { beaconsNeeded, positionAt, shownOnFloor } from '../plan';
import { PlanView } from '../components/PlanView';
import { AreaDialog, BeaconDialog, BuildingDialog, FloorDialog } from '../components/Dialogs';

const RANGES = [15, 60, 360, 1440] as const; // minutes of history
const SPEEDS = [1, 5, 20, 60] as const;

interface History {
  msId: string;
  list: Position[];
  from: number;
  to: number;
}

export default function IndoorPage() {
  const { t } = useTranslation('indoor');
  const { message } = App.useApp();
  const errorText = useErrorText('indoor');
  const dateTime = useDateTimeFormat();
  const socket = useLiveStatus((s) => s.status);
  const buildings = useQuery({ queryKey: indoorKeys.buildings(), queryFn: indoorApi.buildings, staleTime: 0 });
  const list = useMemo(() => buildings.data?.list ?? [], [buildings.data]);
  const [buildingId, setBuildingId] = useState<number>();
  const [floorId, setFloorId] = useState<number>();
  const [editing, setEditing] = useState(false);
  const [selected, setSelected] = useState<string>();
  const positions = useIndoor((s) => s.positions);

  const building: Building | undefined = list.find((b) => b.id === buildingId) ?? list[0];
  const floor: Floor | undefined = building?.floors.find((f) => f.id === floorId) ?? building?.floors[0];
  const density = floor ? { ...beaconsNeeded(floor), have: floor.beacons.length } : undefined;

  useLiveIndoor();
  const { refetch } = buildings;

  // History playback.
  const [histTerminal, setHistTerminal] = useState<string>();
  const [range, setRange] = useState<number>(60);
  const [history, setHistory] = useState<History>();
  const [playAt, setPlayAt] = useState(0);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState<number>(5);
  // The picker lists the terminals with an indoor fix in the range (their latest fix is in it), asked again as
  // it opens: a terminal never seen indoors has no history to play.
  const terminalOptions = useTerminalOptions();
  const seen = useQuery({ queryKey: indoorKeys.seen(range), queryFn: () => indoorApi.last(undefined, Date.now() - range * 60_000), staleTime: 0 });
  const seenTerminals = useMemo(() => {
    const ids = new Set((seen.data?.list ?? []).map((p) => p.msId));
    return terminalOptions.filter((o) => ids.has(o.value));
  }, [seen.data, terminalOptions]);
  const loadHistory = async () => {
    if (!histTerminal) return;
    const to = Date.now();
    const from = to - range * 60_000;
    try {
      const res = await indoorApi.history(histTerminal, from, to);
      if (res.list.length === 0) {
        message.info(t('history.none'));
        setHistory(undefined);
        return;
      }
      setHistory({ msId: histTerminal, list: res.list, from: res.list[0].time, to: res.list[res.list.length - 1].time });
      setPlayAt(res.list[0].time);
      setPlaying(true);
      const first = res.list[0];
      setBuildingId(first.buildingId);
      setFloorId(first.floorId);
    } catch (e) {
      message.error(errorText(e));
    }
  };
  const tick = useRef<number>(undefined);
  useEffect(() => {
    if (!playing || !history) return;
    const step = 200;
    tick.current = window.setInterval(() => {
      setPlayAt((at) => {
        const next = at + step * speed;
        if (next >= history.to) {
          setPlaying(false);
          return history.to;
        }
        return next;
      });
    }, step);
    return () => window.clearInterval(tick.current);
  }, [playing, history, speed]);
  const played = history ? positionAt(history.list, playAt) : undefined;
  // During playback the plan follows the terminal's floor.
  useEffect(() => {
    if (played && played.floorId !== floor?.id) {
      setBuildingId(played.buildingId);
      setFloorId(played.floorId);
    }
  }, [played?.floorId]); // eslint-disable-line react-hooks/exhaustive-deps

  // Dialogs.
  const [buildingDialog, setBuildingDialog] = useState<{ building: Building | null }>();
  const [floorDialog, setFloorDialog] = useState<{ floor: Floor | null; picking: boolean; points: { x: number; y: number }[] }>();
  const [beaconDialog, setBeaconDialog] = useState<{ beacon: Beacon | null; at: { x: number; y: number } }>();
  // Walkable areas: what a plan click does in edit mode, the polygon being drawn (for a new area, or a new outline
  // of `redraw`), and the area dialog.
  const [editWhat, setEditWhat] = useState<'beacons' | 'areas'>('beacons');
  const [draft, setDraft] = useState<[number, number][]>([]);
  const [drawing, setDrawing] = useState(false);
  const [redraw, setRedraw] = useState<Area>();
  const [areaDialog, setAreaDialog] = useState<{ area: Area | null; points?: [number, number][] }>();
  const drawingAreas = editing && editWhat === 'areas';
  const stopDrawing = () => {
    setDraft([]);
    setDrawing(false);
    setRedraw(undefined);
  };
  useEffect(stopDrawing, [floor?.id, editing]);
  const reload = () => void refetch();
  /** A building or floor dialog's close: the one it saved, if any, is picked and the page read again. */
  const closeAndPick = (close: () => void, pick: (id: number) => void) => (saved?: { id: number }) => {
    close();
    if (saved) {
      pick(saved.id);
      reload();
    }
  };
  // A building or a floor removed: a text button that asks, then refreshes the plans.
  const removal = (remove: () => Promise<unknown>) =>
    ({ ns: 'indoor', remove, invalidate: [indoorKeys.buildings.all], iconOnly: false, size: 'middle', okText: t('delete'), cancelText: t('cancel') }) as const;


  const onFloor: Position[] = useMemo(
    () => (floor ? shownOnFloor(floor.id, Object.values(positions), history && { msId: history.msId, at: played }) : []),
    [positions, floor, history, played],
  );
  const track = history && floor ? history.list.filter((p) => p.floorId === floor.id && p.time <= playAt) : undefined;

  const planClick = (x: number, y: number) => {
    if (floorDialog?.picking) {
      const points = [...floorDialog.points, { x, y }].slice(-2);
      setFloorDialog({ ...floorDialog, points, picking: points.length < 2 });
      return;
    }
    if (drawingAreas) {
      if (drawing) setDraft((d) => [...d, [x, y]]);
      return;
    }
    if (editing && floor) setBeaconDialog({ beacon: null, at: { x, y } });
  };

  return (
    <Flex vertical gap={12} style={{ height: '100%', padding: 12 }} data-testid="indoor-page">
      <Card size="small">
        <Flex wrap gap={12} align="center">
          <Typography.Title level={4} style={{ margin: 0 }}>
            {t('title')}
          </Typography.Title>
          <Select
            style={{ minWidth: 200 }}
            placeholder={t('building.choose')}
            value={building?.id}
            options={list.map((b) => ({ value: b.id, label: b.name }))}
            onChange={(v: number) => {
              setBuildingId(v);
              setFloorId(undefined);
            }}
            data-testid="indoor-building"
          />
          {building && building.floors.length > 0 && (
            <Segmented
              value={floor?.id}
              options={building.floors.map((f) => ({ value: f.id, label: f.name }))}
              onChange={(v) => setFloorId(v as number)}
              data-testid="indoor-floors"
            />
          )}
          <Button icon={<ReloadOutlined />} onClick={reload}>
            {t('reload')}
          </Button>
          <Space>
            <Switch checked={editing} onChange={setEditing} data-testid="indoor-edit" />
            {t('edit')}
          </Space>
          {editing && (
            <Space wrap>
              <Button icon={<PlusOutlined />} onClick={() => setBuildingDialog({ building: null })}>
                {t('building.new')}
              </Button>
              {building && (
                <>
                  <Button icon={<EditOutlined />} onClick={() => setBuildingDialog({ building })}>
                    {t('building.edit')}
                  </Button>
                  <RemoveButton {...removal(() => indoorApi.deleteBuilding(building.id))} confirm={t('building.confirmDelete', { name: building.name })} label={t('building.delete')} />
                  <Button icon={<PlusOutlined />} onClick={() => setFloorDialog({ floor: null, picking: false, points: [] })}>
                    {t('floor.new')}
                  </Button>
                </>
              )}
              {floor && (
                <>
                  <Button icon={<EditOutlined />} onClick={() => setFloorDialog({ floor, picking: false, points: [] })}>
                    {t('floor.edit')}
                  </Button>
                  <RemoveButton {...removal(() => indoorApi.deleteFloor(floor.id))} confirm={t('floor.confirmDelete', { name: floor.name })} label={t('floor.delete')} />
                </>
              )}
            </Space>
          )}
          {socket !== 'online' && <Tag color="warning">{t('offline')}</Tag>}
        </Flex>
        {editing && floor && (
          <Flex wrap gap={8} align="center" style={{ marginTop: 8 }}>
            <Segmented
              value={editWhat}
              onChange={(v) => {
                setEditWhat(v as 'beacons' | 'areas');
                stopDrawing();
              }}
              options={[
                { value: 'beacons', label: t('beacon.mode') },
                { value: 'areas', label: t('area.mode', { n: floor.areas?.length ?? 0 }) },
              ]}
              data-testid="indoor-edit-what"
            />
            {drawingAreas && !drawing && (
              <Button icon={<PlusOutlined />} onClick={() => setDrawing(true)} data-testid="indoor-area-draw">
                {t('area.draw')}
              </Button>
            )}
            {drawingAreas && drawing && (
              <Space wrap>
                <Button type="primary" disabled={draft.length < 3} onClick={() => setAreaDialog({ area: redraw ?? null, points: draft })} data-testid="indoor-area-finish">
                  {t('area.finish', { n: draft.length })}
                </Button>
                <Button disabled={draft.length === 0} onClick={() => setDraft((d) => d.slice(0, -1))}>
                  {t('area.undo')}
                </Button>
                <Button onClick={stopDrawing} data-testid="indoor-area-stop">
                  {t('cancel')}
                </Button>
              </Space>
            )}
            <Typography.Text type="secondary">
              {floorDialog?.picking ? t('floor.pickHint') : drawingAreas ? (redraw ? t('area.redrawHint', { name: redraw.name || t('area.unnamed') }) : drawing ? t('area.drawHint') : t('area.hint')) : t('beacon.placeHint')}
            </Typography.Text>
          </Flex>
        )}
        {drawingAreas && floor && (floor.areas?.length ?? 0) === 0 && <Alert type="info" showIcon message={t('area.none')} style={{ marginTop: 8 }} />}
        {editing && floor && density && density.have < density.need && (
          <Alert type="warning" showIcon data-testid="indoor-density" message={t('beacon.tooFew', { have: density.have, need: density.need, area: Math.round(density.area) })} />
        )}
        {!editing && floorDialog?.picking && <Typography.Text type="secondary">{t('floor.pickHint')}</Typography.Text>}
      </Card>

      <Flex gap={12} style={{ flex: 1, minHeight: 0 }}>
        <Card size="small" style={{ flex: 1, minWidth: 0 }} styles={{ body: { height: '100%', padding: 4 } }}>
          {floor ? (
            <PlanView
              floor={floor}
              positions={onFloor}
              selected={history ? history.msId : selected}
              onSelect={setSelected}
              onPlanClick={editing || floorDialog?.picking ? planClick : undefined}
              onBeaconClick={editing && !drawingAreas ? (b) => setBeaconDialog({ beacon: b, at: { x: b.x, y: b.y } }) : undefined}
              showAreas={drawingAreas}
              onAreaClick={drawingAreas && !drawing ? (a) => setAreaDialog({ area: a }) : undefined}
              selectedArea={redraw?.id ?? areaDialog?.area?.id}
              draft={drawingAreas ? draft : undefined}
              track={track}
              marks={floorDialog?.picking || floorDialog?.points.length ? floorDialog.points : undefined}
            />
          ) : (
            <Empty description={list.length ? t('floor.none') : t('building.none')} style={{ marginTop: 80 }} />
          )}
        </Card>

        <Flex vertical gap={12} style={{ width: 300 }}>
          <Card size="small" title={history ? t('terminals.playback', { floor: floor?.name ?? '' }) : t('terminals.title', { n: onFloor.length })}
            styles={{ body: { maxHeight: 260, overflow: 'auto', padding: 0 } }} data-testid="indoor-terminals">
            <List
              size="small"
              dataSource={onFloor}
              locale={{ emptyText: t('terminals.none') }}
              renderItem={(p) => (
                <List.Item
                  onClick={() => setSelected(p.msId)}
                  style={{ cursor: 'pointer', paddingInline: 12, background: p.msId === (history?.msId ?? selected) ? 'var(--ant-control-item-bg-active, #e6f4ff)' : undefined }}
                  data-testid="indoor-terminal-row"
                  data-ms-id={p.msId}
                  data-time={p.time}
                  data-floor-id={p.floorId}
                >
                  <List.Item.Meta
                    title={
                      <Space size={4}>
                        {p.name || p.msId}
                        {history && <Tag color="processing">{t('history.played')}</Tag>}
                        {p.uncertain && (
                          <Tag color="default" title={t('terminals.uncertainHelp')} data-testid="indoor-uncertain">
                            {t('terminals.uncertain')}
                          </Tag>
                        )}
                      </Space>
                    }
                    description={t('terminals.line', { time: formatZoned(p.time, dateTime), accuracy: p.accuracy.toFixed(1), beacons: p.beacons })}
                  />
                </List.Item>
              )}
            />
          </Card>
          <Card size="small" title={<Space><HistoryOutlined />{t('history.title')}</Space>}>
            <Flex vertical gap={8}>
              <Select showSearch={{ optionFilterProp: 'label' }} allowClear value={histTerminal} onChange={setHistTerminal} options={seenTerminals}
                placeholder={t('history.terminal')} notFoundContent={t('history.noneSeen')} onOpenChange={(open) => open && void seen.refetch()}
                data-testid="indoor-history-terminal" />
              <Select value={range} onChange={setRange} options={RANGES.map((m) => ({ value: m, label: m >= 60 ? t('history.lastHours', { n: m / 60 }) : t('history.lastMinutes', { n: m }) }))} />
              <Space>
                <Button type="primary" onClick={loadHistory} disabled={!histTerminal} data-testid="indoor-history-play">
                  {t('history.play')}
                </Button>
                {history && (
                  <Button
                    onClick={() => {
                      setHistory(undefined);
                      setPlaying(false);
                    }}
                  >
                    {t('history.live')}
                  </Button>
                )}
              </Space>
              {history && (
                <>
                  <Slider min={history.from} max={Math.max(history.to, history.from + 1)} value={playAt} onChange={(v) => setPlayAt(v)} tooltip={{ formatter: (v) => formatZoned(v, dateTime) }} />
                  <Flex align="center" gap={8}>
                    <Button icon={playing ? <PauseOutlined /> : <PlayCircleOutlined />} onClick={() => setPlaying(!playing)} aria-label={playing ? t('history.pause') : t('history.resume')} />
                    <Segmented size="small" value={speed} onChange={(v) => setSpeed(v as number)} options={SPEEDS.map((s) => ({ value: s, label: `×${s}` }))} />
                  </Flex>
                  <Typography.Text type="secondary" data-testid="indoor-history-status" data-points={history.list.length} data-at={playAt}>
                    {formatZoned(playAt, dateTime)} · {t('history.points', { n: history.list.length })}
                  </Typography.Text>
                </>
              )}
            </Flex>
          </Card>
        </Flex>
      </Flex>

      {buildingDialog && (
        <BuildingDialog
          building={buildingDialog.building}
          onClose={closeAndPick(() => setBuildingDialog(undefined), setBuildingId)}
        />
      )}
      {floorDialog && building && (
        <FloorDialog
          open={!floorDialog.picking}
          buildingId={building.id}
          floor={floorDialog.floor}
          refPoints={floorDialog.points}
          onPickRef={() => setFloorDialog({ ...floorDialog, picking: true, points: [] })}
          onClose={closeAndPick(() => setFloorDialog(undefined), setFloorId)}
        />
      )}
      {areaDialog && floor && (
        <AreaDialog
          floor={floor}
          area={areaDialog.area}
          points={areaDialog.points}
          onRedraw={
            areaDialog.area && !areaDialog.points
              ? () => {
                  setRedraw(areaDialog.area ?? undefined);
                  setDraft([]);
                  setDrawing(true);
                  setAreaDialog(undefined);
                }
              : undefined
          }
          onClose={(changed) => {
            setAreaDialog(undefined);
            if (changed) {
              stopDrawing();
              reload();
            }
          }}
        />
      )}
      {beaconDialog && floor && (
        <BeaconDialog
          floor={floor}
          beacon={beaconDialog.beacon}
          at={beaconDialog.at}
          onClose={(changed) => {
            setBeaconDialog(undefined);
            if (changed) reload();
          }}
        />
      )}
    </Flex>
  );
}
