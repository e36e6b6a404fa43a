// Smaller map tool panels: the data list (terminals in view), layers, and the SOS map list.
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Checkbox, Empty, Input, List, Radio, Select, Space, Switch, Tag } from 'antd';
import { DataTable } from '../../../shared/table/DataTable';
import { NameCell } from './NameCell';
import type { Map as MapLibreMap } from 'maplibre-gl';
import dayjs from '../../../shared/utils/dayjs';
import { useBranding, useDateTimeFormat } from '../../../shared/branding/store';
import { useDirectory } from '../../../shared/directory/store';
import { MAP_TYPES, useSettings, type MapType } from '../../../shared/settings';
import { hasPosition, isStale, STATE_COLORS, terminalState, type TermState } from '../../../map/terminalFeatures';
import { MAP_THEMES } from '../../../map/themes';
import { currentTalkers } from '../../../shared/geo/live';
import { openSosByTerminal, useOpenSosByTerminal } from '../../../shared/alarms/store';
import { useVoice } from '../../../shared/voice/store';
import { useMapPrefs } from '../prefs';
import { formatSpeed, speedUnitOf } from '../../../shared/geo/units';

interface Row {
  cid: string;
  name: string;
  state: TermState;
  speed?: number;
  lastGps?: number;
  stale: boolean;
}

/** Terminals whose position is inside the map's current view (spec §2 map tools "data list"). */
export function DataListPanel({ map, toMap, onPick }: { map: MapLibreMap | undefined; toMap: (lng: number, lat: number) => [number, number]; onPick: (cid: string) => void }) {
  const { t } = useTranslation('map');
  const unit = speedUnitOf(useBranding((s) => s.clientConfig.speedUnit));
  const dateTime = useDateTimeFormat();
  const [rows, setRows] = useState<Row[]>([]);
  const [search, setSearch] = useState('');
  useEffect(() => {
    if (!map) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const compute = () => {
      const b = map.getBounds();
      const sos = openSosByTerminal();
      const talking = currentTalkers(useVoice.getState().talkers);
      const now = Date.now();
      const out: Row[] = [];
      for (const term of Object.values(useDirectory.getState().terminals)) {
        if (!hasPosition(term)) continue;
        const [lng, lat] = toMap(term.lng!, term.lat!);
        if (!b.contains([lng, lat])) continue;
        out.push({ cid: term.cid, name: term.name || term.cid, state: terminalState(term, talking, sos), speed: term.speed, lastGps: term.lastGps, stale: isStale(term, now) });
      }
      out.sort((a, b) => a.name.localeCompare(b.name));
      setRows(out);
    };
    const later = () => {
      clearTimeout(timer);
      timer = setTimeout(compute, 300);
    };
    compute();
    map.on('moveend', later);
    const unsub = useDirectory.subscribe(later);
    const interval = setInterval(compute, 5000);
    return () => {
      clearTimeout(timer);
      clearInterval(interval);
      map.off('moveend', later);
      unsub();
    };
  }, [map, toMap]);
  const shown = search ? rows.filter((r) => r.name.toLowerCase().includes(search.toLowerCase()) || r.cid.includes(search)) : rows;
  return (
    <div data-testid="data-list" data-count={rows.length}>
      <Input.Search allowClear size="small" placeholder={t('dataList.search')} value={search} onChange={(e) => setSearch(e.target.value)} style={{ marginBottom: 8 }} />
      <DataTable<Row>
        rowKey="cid"
        dataSource={shown}
        pagination={{ pageSize: 15, size: 'small', showTotal: (n) => t('dataList.total', { count: n }) }}
        onRow={(r) => ({ onClick: () => onPick(r.cid), style: { cursor: 'pointer' } })}
        columns={[
          { key: 'name', title: t('dataList.name'), render: (_, r) => <NameCell color={STATE_COLORS[r.state]} name={r.name} />, ellipsis: true, width: 110 },
          { key: 'state', title: t('dataList.state'), render: (_, r) => t(`state.${r.state}`), width: 80, ellipsis: true },
          { key: 'speed', title: t('dataList.speed'), render: (_, r) => formatSpeed(r.speed, unit), width: 80, ellipsis: true },
          { key: 'gps', title: t('dataList.lastFix'), render: (_, r) => (r.lastGps ? <span style={{ opacity: r.stale ? 0.55 : 1 }}>{dayjs(r.lastGps).format(dateTime)}</span> : '—'), width: 150 },
        ]}
      />
    </div>
  );
}

export function LayersPanel({ fencesAllowed }: { fencesAllowed: boolean }) {
  const { t } = useTranslation('map');
  const prefs = useMapPrefs();
  const mapType = useSettings((s) => s.mapType);
  const update = useSettings((s) => s.update);
  const layer = (key: keyof typeof prefs.layers) => (
    <Checkbox checked={prefs.layers[key]} onChange={(e) => prefs.update({ layers: { ...prefs.layers, [key]: e.target.checked } })} data-testid={`layer-${key}`}>
      {t(`layers.${key}`)}
    </Checkbox>
  );
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="layers-panel">
      <b>{t('layers.provider')}</b>
      <Select<MapType> value={mapType} onChange={(v) => update({ mapType: v })} options={MAP_TYPES.map((m) => ({ value: m, label: t(`providers.${m}`) }))} style={{ width: '100%' }} data-testid="map-provider" />
      <b>{t('layers.basemap')}</b>
      <Space wrap>
        <label>
          <Switch size="small" checked={prefs.satellite} onChange={(v) => prefs.update({ satellite: v })} data-testid="layer-satellite" /> {t('tools.satellite')}
        </label>
        <label>
          <Switch size="small" checked={prefs.roadNet} onChange={(v) => prefs.update({ roadNet: v })} data-testid="layer-roadnet" /> {t('tools.roadNet')}
        </label>
        <label>
          <Switch size="small" checked={prefs.eagleEye} onChange={(v) => prefs.update({ eagleEye: v })} /> {t('tools.eagleEye')}
        </label>
      </Space>
      <b>{t('layers.overlays')}</b>
      <Space direction="vertical">
        {layer('terminals')}
        {fencesAllowed && layer('fences')}
        {layer('marks')}
      </Space>
      <b>{t('layers.theme')}</b>
      <Radio.Group value={prefs.theme} onChange={(e) => prefs.update({ theme: e.target.value })} data-testid="map-theme">
        <Space direction="vertical">
          {MAP_THEMES.map((th) => (
            <Radio key={th} value={th}>
              {t(`themes.${th}`)}
            </Radio>
          ))}
        </Space>
      </Radio.Group>
    </Space>
  );
}

export function SosPanel({ onPick }: { onPick: (cid: string) => void }) {
  const { t } = useTranslation('map');
  const sos = useOpenSosByTerminal();
  const dateTime = useDateTimeFormat();
  const list = useMemo(() => Object.values(sos).sort((a, b) => b.time - a.time), [sos]);
  if (!list.length) return <Empty description={t('sos.none')} data-testid="sos-list" />;
  return (
    <List
      size="small"
      data-testid="sos-list"
      dataSource={list}
      renderItem={(a) => (
        <List.Item onClick={() => onPick(a.msId)} style={{ cursor: 'pointer' }}>
          <Space>
            <Tag color="red">{t(a.state === 0 ? 'sos.raised' : 'sos.acknowledged')}</Tag>
            {a.msName || a.msId}
            <span style={{ opacity: 0.7 }}>{dayjs(a.time).format(dateTime)}</span>
          </Space>
        </List.Item>
      )}
    />
  );
}
