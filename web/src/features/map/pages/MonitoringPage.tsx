// /monitoring and /os-monitoring (and their -child windows): the live map with its tools (spec §2).
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Card, Dropdown, Space, Tag, Tooltip } from 'antd';
import {
  AlertOutlined, AppstoreOutlined, BgColorsOutlined, BorderOutlined, ColumnWidthOutlined, CloseOutlined, EnvironmentOutlined,
  GatewayOutlined, GlobalOutlined, NodeIndexOutlined, PictureOutlined, TableOutlined, EyeOutlined, BranchesOutlined,
} from '@ant-design/icons';
import type { Screen } from '../../../shared/access/routes';
import { FOLLOW_WINDOW_NUMBERS } from '../../../shared/access/routes';
import { isFeatureEnabled } from '../../../shared/access/features';
import { useGateContext } from '../../../shared/access/gate';
import { MapView, type BasemapState } from '../../../map/MapView';
import { useMapApi, type MapApi } from '../../../map/context';
import { EagleEye } from '../../../map/EagleEye';
import { DrawLayer, type DrawMode } from '../../../map/layers/DrawLayer';
import { FencesLayer, fencePolygon } from '../../../map/layers/FencesLayer';
import { MarksLayer } from '../../../map/layers/MarksLayer';
import { SosLayer } from '../../../map/layers/SosLayer';
import { TerminalsLayer } from '../../../map/layers/TerminalsLayer';
import { TrackLayer } from '../../../map/layers/TrackLayer';
import { MAP_THEMES } from '../../../map/themes';
import type { Provider } from '../../../map/gcj';
import type { Feature, Geometry } from 'geojson';
import { useBranding } from '../../../shared/branding/store';
import { isDispatcher } from '../../../shared/directory/model';
import { useDirectory } from '../../../shared/directory/store';
import { useLiveDirectory } from '../../../shared/directory/useLiveDirectory';
import { useSettings } from '../../../shared/settings';
import { fencesQuery, marksQuery, type Mark } from '../../../shared/geo/api';
import { GeofencePanel, FENCE_TABS, type DrawRequest } from '../components/GeofencePanel';
import { MarksPanel } from '../components/MarksPanel';
import { DataListPanel, LayersPanel, SosPanel } from '../components/SidePanels';
import { TerminalCard, type CardAction } from '../components/TerminalCard';
import { TrackPanel } from '../components/TrackPanel';
import { useMapPrefs } from '../prefs';
import { useTrack } from '../trackStore';
import { measureText, type Measure } from '../../../shared/geo/measure';
import { placedCount, placedShape } from '../../../map/drawShape';
import { MapLegend } from '../components/MapLegend';
import { useMapLiveFeed } from '../useMapLiveFeed';
import '../map-page.css';

type Panel = 'fence' | 'track' | 'marks' | 'dataList' | 'layers' | 'sos';

const identity = (lng: number, lat: number): [number, number] => [lng, lat];

export const FOLLOW_KEY = 'tenfour.follow';

/** Opens (or reuses) a follow window for a terminal: the first number not following anyone else. */
export function openFollowWindow(cid: string): number {
  let used: Record<string, string> = {};
  try {
    used = JSON.parse(localStorage.getItem(FOLLOW_KEY) ?? '{}') as Record<string, string>;
  } catch {
    /* start afresh */
  }
  const n = FOLLOW_WINDOW_NUMBERS.find((x) => used[x] === cid) ?? FOLLOW_WINDOW_NUMBERS.find((x) => !used[x]) ?? FOLLOW_WINDOW_NUMBERS[0]!;
  used[n] = cid;
  localStorage.setItem(FOLLOW_KEY, JSON.stringify(used));
  window.open(`/monitoring-follow-child-${n}?msId=${encodeURIComponent(cid)}`, `tenfour-follow-${n}`, 'popup,width=720,height=520');
  return n;
}

export default function MonitoringPage({ screen }: { screen: Screen }) {
  const { t } = useTranslation('map');
  const { modal } = App.useApp();
  const [params, setParams] = useSearchParams();
  const gate = useGateContext();
  const canFence = isFeatureEnabled('fence', gate);
  const canTrack = isFeatureEnabled('trackPlayback', gate);
  useLiveDirectory();
  useMapLiveFeed();
  const mapType = useSettings((s) => s.mapType);
  const language = useSettings((s) => s.language);
  const updateSettings = useSettings((s) => s.update);
  const hideOffline = useSettings((s) => s.hideOffline);
  const hideDispatcher = useSettings((s) => s.hideDispatcher);
  const mapsKey = useBranding((s) => s.clientConfig.mapsKey);
  const prefs = useMapPrefs();
  const fences = useQuery({ ...fencesQuery(), enabled: canFence });
  const marks = useQuery(marksQuery());
  const track = useTrack((s) => s.track);
  const timeline = useTrack((s) => s.timeline);
  const frameIndex = useTrack((s) => s.frame);
  const follow = useTrack((s) => s.follow);

  const [selected, setSelected] = useState<string | undefined>(params.get('msId') ?? undefined);
  const [panel, setPanel] = useState<Panel | null>(() => (params.get('tool') as Panel) || null);
  const [fenceTab, setFenceTab] = useState<string>(params.get('fenceTab') ?? FENCE_TABS.list);
  const [selectedFence, setSelectedFence] = useState<string>();
  const [trackTerminal, setTrackTerminal] = useState<string | undefined>(params.get('trackMsId') ?? undefined);
  // A track link: ?tool=track&trackMsId=…&trackFrom=…&trackTo=… (UTC ms).
  const [trackRange] = useState<[number, number] | undefined>(() => {
    const from = Number(params.get('trackFrom'));
    const to = Number(params.get('trackTo'));
    return from > 0 && to > 0 ? [from, to] : undefined;
  });
  const [measure, setMeasure] = useState<Measure | null>(null);
  // What the ranging or area tool has placed so far (WGS-84), and the Finish and Clear buttons' presses.
  const [measured, setMeasured] = useState<Feature<Geometry> | null>(null);
  const [measureFinishes, setMeasureFinishes] = useState(0);
  const [measureClears, setMeasureClears] = useState(0);
  const [drawReq, setDrawReq] = useState<DrawRequest | null>(null);
  const [noKey, setNoKey] = useState<Provider>();
  const [basemap, setBasemap] = useState<BasemapState>('loading');
  const [mapApi, setMapApi] = useState<MapApi | null>(null);
  const [flyTo, setFlyTo] = useState<{ center?: [number, number]; bounds?: [number, number, number, number]; n: number }>();

  useEffect(() => {
    const next = new URLSearchParams(params);
    if (panel) next.set('tool', panel);
    else next.delete('tool');
    if (panel === 'fence') next.set('fenceTab', fenceTab);
    else next.delete('fenceTab');
    if (next.toString() !== params.toString()) setParams(next, { replace: true });
  }, [panel, fenceTab]); // eslint-disable-line react-hooks/exhaustive-deps

  const togglePanel = (p: Panel) => setPanel((cur) => (cur === p ? null : p));
  const requestDraw = useCallback((r: DrawRequest | null) => {
    setDrawReq(r);
    if (r) setMeasure(null);
  }, []);
  const drawMode: DrawMode | undefined = drawReq?.mode ?? (measure === 'area' ? 'polygon' : measure === 'distance' ? 'linestring' : undefined);

  const filter = useMemo(() => {
    if (!hideOffline && !hideDispatcher) return undefined;
    return (cid: string) => {
      const term = useDirectory.getState().terminals[cid];
      if (!term) return false;
      if (hideOffline && term.online !== '1') return false;
      if (hideDispatcher && isDispatcher(term)) return false;
      return true;
    };
  }, [hideOffline, hideDispatcher]);

  // A link to a terminal (?msId=…) centres on it once the directory is in.
  const loaded = useDirectory((s) => s.loaded);
  useEffect(() => {
    const cid = params.get('msId');
    if (loaded && cid) locate(cid);
  }, [loaded]); // eslint-disable-line react-hooks/exhaustive-deps

  const locate = (cid: string) => {
    setSelected(cid);
    const term = useDirectory.getState().terminals[cid];
    if (term?.lat !== undefined && term.lng !== undefined) setFlyTo({ center: [term.lng, term.lat], n: Date.now() });
  };

  const onCard = (a: CardAction) => {
    if (!selected) return;
    switch (a) {
      case 'track':
        setTrackTerminal(selected);
        return setPanel('track');
      case 'follow':
        return void openFollowWindow(selected);
    }
  };

  const onGoogleInaccessible = useCallback(() => {
    modal.confirm({
      title: t('provider.googleInaccessible'),
      content: t('provider.switchToAmap'),
      okText: t('provider.useAmap'),
      cancelText: t('cancel'),
      okButtonProps: { 'data-testid': 'switch-amap' } as React.ComponentProps<typeof Button>,
      onOk: () => updateSettings({ mapType: 'amap' }),
    });
  }, [modal, t, updateSettings]);

  const tools: { key: string; icon: React.ReactNode; label: string; active: boolean; onClick: () => void; hidden?: boolean }[] = [
    { key: 'layers', icon: <AppstoreOutlined />, label: t('tools.layers'), active: panel === 'layers', onClick: () => togglePanel('layers') },
    { key: 'dataList', icon: <TableOutlined />, label: t('tools.dataList'), active: panel === 'dataList', onClick: () => togglePanel('dataList') },
    { key: 'fence', icon: <GatewayOutlined />, label: t('tools.fence'), active: panel === 'fence', onClick: () => togglePanel('fence'), hidden: !canFence },
    { key: 'track', icon: <NodeIndexOutlined />, label: t('tools.track'), active: panel === 'track', onClick: () => togglePanel('track'), hidden: !canTrack },
    { key: 'marks', icon: <EnvironmentOutlined />, label: t('tools.marks'), active: panel === 'marks', onClick: () => togglePanel('marks') },
    { key: 'sos', icon: <AlertOutlined />, label: t('tools.sos'), active: panel === 'sos', onClick: () => togglePanel('sos') },
    { key: 'distance', icon: <ColumnWidthOutlined />, label: t('tools.distance'), active: measure === 'distance', onClick: () => (setDrawReq(null), setMeasured(null), setMeasure((m) => (m === 'distance' ? null : 'distance'))) },
    { key: 'area', icon: <BorderOutlined />, label: t('tools.area'), active: measure === 'area', onClick: () => (setDrawReq(null), setMeasured(null), setMeasure((m) => (m === 'area' ? null : 'area'))) },
    { key: 'roadNet', icon: <BranchesOutlined />, label: t('tools.roadNet'), active: prefs.roadNet, onClick: () => prefs.update({ roadNet: !prefs.roadNet }) },
    { key: 'satellite', icon: <GlobalOutlined />, label: t('tools.satellite'), active: prefs.satellite, onClick: () => prefs.update({ satellite: !prefs.satellite }) },
    { key: 'eagleEye', icon: <EyeOutlined />, label: t('tools.eagleEye'), active: prefs.eagleEye, onClick: () => prefs.update({ eagleEye: !prefs.eagleEye }) },
  ];
  const frame = timeline?.frameAt(frameIndex);
  const dark = prefs.theme === 'dark' || prefs.theme === 'phantomBlack';

  return (
    <div className="map-page" data-testid="map-page" data-screen={screen}>
      <div className="map-main">
        <MapView
          provider={mapType}
          mapsKey={mapsKey}
          language={language}
          theme={prefs.theme}
          satellite={prefs.satellite}
          roadNet={prefs.roadNet}
          onNoKey={setNoKey}
          onGoogleInaccessible={onGoogleInaccessible}
          onBasemap={setBasemap}
          onReady={setMapApi}
        >
          {canFence && <FencesLayer fences={fences.data ?? []} selected={selectedFence} visible={prefs.layers.fences} />}
          <MarksLayer marks={marks.data ?? []} visible={prefs.layers.marks} />
          <SosLayer visible={panel === 'sos'} />
          <TerminalsLayer
            selected={selected}
            onSelect={setSelected}
            filter={filter}
            dark={dark}
            visible={prefs.layers.terminals}
            interactive={!drawMode}
            labels={{ more: (n) => t('cluster.more', { count: n }), state: (s) => t(`state.${s}`, { defaultValue: s }) }}
          />
          {track && <TrackLayer points={track.points} stops={track.stops} frame={frame} follow={follow} />}
          <DrawLayer
            mode={drawMode}
            resetKey={`${measure}:${measureClears}`}
            finishKey={measureFinishes || undefined}
            onFinish={(f) => drawReq?.onFinish(f)}
            onChange={(f) => measure && setMeasured(placedShape(f))}
          />
          {prefs.eagleEye && <EagleEye theme={prefs.theme} tiles={basemap === 'tiles'} />}
          <Camera target={flyTo} />
          {selectedFence && <FenceFocus fenceid={selectedFence} fences={fences.data ?? []} />}
        </MapView>
        <div className="map-toolbar map-overlay" data-testid="map-toolbar">
          <Space.Compact direction="vertical">
            {tools
              .filter((x) => !x.hidden)
              .map((x) => (
                <Tooltip key={x.key} title={x.label} placement="right">
                  <Button icon={x.icon} type={x.active ? 'primary' : 'default'} onClick={x.onClick} data-testid={`tool-${x.key}`} aria-label={x.label} aria-pressed={x.active} />
                </Tooltip>
              ))}
            <Dropdown
              trigger={['click']}
              menu={{ selectable: true, selectedKeys: [prefs.theme], items: MAP_THEMES.map((th) => ({ key: th, label: t(`themes.${th}`) })), onClick: ({ key }) => prefs.update({ theme: key as typeof prefs.theme }) }}
            >
              <Tooltip title={t('tools.theme')} placement="right">
                <Button icon={<BgColorsOutlined />} data-testid="tool-theme" aria-label={t('tools.theme')} />
              </Tooltip>
            </Dropdown>
          </Space.Compact>
        </div>
        <div className="map-status map-overlay">
          {basemap === 'offline' && (
            <Tooltip title={t('basemap.offlineHint')}>
              <Tag icon={<PictureOutlined />} color="warning" data-testid="map-offline-badge">
                {t('basemap.offline')}
              </Tag>
            </Tooltip>
          )}
          {noKey && (
            <Alert type="warning" showIcon closable onClose={() => setNoKey(undefined)} title={t('provider.noKey', { provider: t(`providers.${noKey}`) })} data-testid="map-no-key" />
          )}
        </div>
        <div className="map-dock map-overlay">
          {measure && (
            <MeasureBar
              kind={measure}
              shape={measured}
              onFinish={() => setMeasureFinishes((n) => n + 1)}
              onClear={() => (setMeasured(null), setMeasureClears((n) => n + 1))}
            />
          )}
          <MapLegend />
        </div>
        {selected && <TerminalCard cid={selected} canTrack={canTrack} onAction={onCard} onClose={() => setSelected(undefined)} />}
      </div>
      {panel && (
        <Card
          size="small"
          className="map-side"
          title={t(`tools.${panel}`)}
          extra={<Button type="text" size="small" icon={<CloseOutlined />} onClick={() => (setPanel(null), setDrawReq(null))} aria-label={t('close')} />}
          data-testid={`panel-${panel}`}
        >
          {panel === 'layers' && <LayersPanel fencesAllowed={canFence} />}
          {panel === 'dataList' && <DataListPanel map={mapApi?.map} toMap={mapApi?.toMap ?? identity} onPick={locate} />}
          {panel === 'fence' && (
            <GeofencePanel fences={fences.data ?? []} selected={selectedFence} onSelect={setSelectedFence} requestDraw={requestDraw} tab={fenceTab} onTab={setFenceTab} />
          )}
          {panel === 'track' && <TrackPanel initialTerminal={trackTerminal} initialRange={trackRange} />}
          {panel === 'marks' && <MarksPanel marks={marks.data ?? []} requestDraw={requestDraw} onLocate={(m) => setFlyTo({ bounds: boundsOf(m), n: Date.now() })} />}
          {panel === 'sos' && <SosPanel onPick={locate} />}
        </Card>
      )}
    </div>
  );
}

/**
 * The ranging and area readout: the figure for the points placed so far (shown after every click or tap, not only
 * while a pointer hovers), and Finish and Clear, so neither a double-click nor a key is needed.
 */
function MeasureBar({ kind, shape, onFinish, onClear }: { kind: Measure; shape: Feature<Geometry> | null; onFinish: () => void; onClear: () => void }) {
  const { t } = useTranslation('map');
  const points = placedCount(shape);
  const drawing = Boolean(shape?.properties?.currentlyDrawing);
  const text = points > 1 ? measureText(kind, shape) : '';
  return (
    <div className="map-measure" data-testid="measure-bar" data-points={points} data-drawing={drawing ? '1' : '0'}>
      <span className="map-measure-text" data-testid="measure-result" data-kind={kind}>
        <b>{t(kind === 'area' ? 'tools.area' : 'tools.distance')}:</b> {text || t(kind === 'area' ? 'measure.hintArea' : 'measure.hintDistance')}
      </span>
      {points > 0 && <span className="map-measure-points">{t('measure.points', { count: points })}</span>}
      <Button size="small" type="primary" disabled={!drawing || points < (kind === 'area' ? 3 : 2)} onClick={onFinish} data-testid="measure-finish">
        {t('measure.finish')}
      </Button>
      <Button size="small" disabled={!points} onClick={onClear} data-testid="measure-clear">
        {t('measure.clear')}
      </Button>
    </div>
  );
}

function boundsOf(m: Mark): [number, number, number, number] {
  const pts: number[][] = m.geometry.type === 'Point' ? [m.geometry.coordinates] : m.geometry.type === 'LineString' ? m.geometry.coordinates : (m.geometry.coordinates[0] ?? []);
  const lngs = pts.map((p) => p[0]!);
  const lats = pts.map((p) => p[1]!);
  return [Math.min(...lngs), Math.min(...lats), Math.max(...lngs), Math.max(...lats)];
}

/** Moves the camera when asked (positions are WGS-84; projected here). */
function Camera({ target }: { target?: { center?: [number, number]; bounds?: [number, number, number, number]; n: number } }) {
  const { map, toMap } = useMapApi();
  useEffect(() => {
    if (!target) return;
    if (target.center) map.easeTo({ center: toMap(...target.center), zoom: Math.max(map.getZoom(), 15) });
    else if (target.bounds) {
      const [w, s, e, n] = target.bounds;
      const a = toMap(w, s);
      const b = toMap(e, n);
      if (a[0] === b[0] && a[1] === b[1]) map.easeTo({ center: a, zoom: Math.max(map.getZoom(), 15) });
      else map.fitBounds([a[0], a[1], b[0], b[1]], { padding: 80, maxZoom: 17 });
    }
  }, [target?.n]); // eslint-disable-line react-hooks/exhaustive-deps
  return null;
}

function FenceFocus({ fenceid, fences }: { fenceid: string; fences: { fenceid: string }[] }) {
  const { map, toMap } = useMapApi();
  useEffect(() => {
    const f = fences.find((x) => x.fenceid === fenceid) as Parameters<typeof fencePolygon>[0] | undefined;
    const poly = f && fencePolygon(f);
    if (!poly) return;
    const pts = (poly.coordinates[0] ?? []).map((p) => toMap(p[0]!, p[1]!));
    const lngs = pts.map((p) => p[0]);
    const lats = pts.map((p) => p[1]);
    map.fitBounds([Math.min(...lngs), Math.min(...lats), Math.max(...lngs), Math.max(...lats)], { padding: 80, maxZoom: 17 });
  }, [fenceid]); // eslint-disable-line react-hooks/exhaustive-deps
  return null;
}

