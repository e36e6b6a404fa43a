// /monitoring-follow-child-{n} (n = 1, 2, 4…20): a window that keeps one terminal centred (spec §2, §9).
import { useEffect, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Space, Tag } from 'antd';
import type { Screen } from '../../../shared/access/routes';
import { MapView } from '../../../map/MapView';
import { useMapApi } from '../../../map/context';
import { TerminalsLayer } from '../../../map/layers/TerminalsLayer';
import { hasPosition } from '../../../map/terminalFeatures';
import { useBranding } from '../../../shared/branding/store';
import { useDirectory } from '../../../shared/directory/store';
import { useLiveDirectory } from '../../../shared/directory/useLiveDirectory';
import { useSettings } from '../../../shared/settings';
import { TerminalPicker } from '../../../shared/directory/TerminalPicker';
import { useMapPrefs } from '../prefs';
import { useMapLiveFeed } from '../useMapLiveFeed';
import { FOLLOW_KEY } from './MonitoringPage';
import '../map-page.css';

export function followNumber(pathname: string): number {
  return Number(/monitoring-follow-child-(\d+)/.exec(pathname)?.[1] ?? 0);
}

function stored(n: number): string | undefined {
  try {
    return (JSON.parse(localStorage.getItem(FOLLOW_KEY) ?? '{}') as Record<string, string>)[n];
  } catch {
    return undefined;
  }
}

export default function FollowPage({ screen }: { screen: Screen }) {
  const { t } = useTranslation('map');
  const n = followNumber(useLocation().pathname);
  const [params, setParams] = useSearchParams();
  const [cid, setCid] = useState<string | undefined>(params.get('msId') ?? stored(n));
  useLiveDirectory();
  useMapLiveFeed();
  const mapType = useSettings((s) => s.mapType);
  const language = useSettings((s) => s.language);
  const mapsKey = useBranding((s) => s.clientConfig.mapsKey);
  const theme = useMapPrefs((s) => s.theme);
  const name = useDirectory((s) => (cid ? s.terminals[cid]?.name : undefined));

  const pick = (v?: string) => {
    setCid(v);
    let used: Record<string, string> = {};
    try {
      used = JSON.parse(localStorage.getItem(FOLLOW_KEY) ?? '{}') as Record<string, string>;
    } catch {
      /* afresh */
    }
    if (v) used[n] = v;
    else delete used[n];
    localStorage.setItem(FOLLOW_KEY, JSON.stringify(used));
    setParams(v ? { msId: v } : {}, { replace: true });
  };
  useEffect(() => {
    document.title = name ? t('follow.title', { n, name }) : t('follow.titleEmpty', { n });
  }, [n, name, t]);
  useEffect(
    () => () => {
      // Closing the window frees its number.
      try {
        const used = JSON.parse(localStorage.getItem(FOLLOW_KEY) ?? '{}') as Record<string, string>;
        delete used[n];
        localStorage.setItem(FOLLOW_KEY, JSON.stringify(used));
      } catch {
        /* nothing kept */
      }
    },
    [n],
  );

  return (
    <div className="map-page" data-testid="follow-page" data-screen={screen} data-window={n} data-cid={cid ?? ''}>
      <div className="map-main">
        <MapView provider={mapType} mapsKey={mapsKey} language={language} theme={theme} initialZoom={15}>
          <TerminalsLayer selected={cid} onSelect={(c) => c && pick(c)} labels={{ more: (k) => t('cluster.more', { count: k }), state: (s) => t(`state.${s}`, { defaultValue: s }) }} />
          {cid && <KeepCentred cid={cid} />}
        </MapView>
        <div className="follow-bar">
          <Space>
            <Tag color="blue">{t('follow.window', { n })}</Tag>
            <TerminalPicker value={cid} onChange={pick} placeholder={t('follow.pick')} testId="follow-terminal" style={{ width: 260 }} />
          </Space>
        </div>
      </div>
    </div>
  );
}

/** Re-centres on the terminal whenever it moves (and at once when chosen). */
function KeepCentred({ cid }: { cid: string }) {
  const { map, toMap } = useMapApi();
  useEffect(() => {
    let last = '';
    const centre = (first: boolean) => {
      const term = useDirectory.getState().terminals[cid];
      if (!term || !hasPosition(term)) return;
      const key = `${term.lng},${term.lat}`;
      if (key === last) return;
      last = key;
      const c = toMap(term.lng!, term.lat!);
      if (first) map.jumpTo({ center: c });
      else map.easeTo({ center: c, duration: 600 });
      (map.getContainer() as HTMLElement).dataset.centre = `${c[0].toFixed(6)},${c[1].toFixed(6)}`;
    };
    centre(true);
    return useDirectory.subscribe(() => centre(false));
  }, [map, toMap, cid]);
  return null;
}
