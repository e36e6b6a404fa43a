// The one map (web/src/map) with the patrol points layer, in the user's map settings.
import type { ReactNode } from 'react';
import { MapView } from '../../../map/MapView';
import { useBranding } from '../../../shared/branding/store';
import { useSettings } from '../../../shared/settings';
import { PointsLayer, type MapPoint } from './PointsLayer';

export function PatrolMap(props: { points: MapPoint[]; route?: boolean; onSelect?: (id: number) => void; onPick?: (lat: number, lng: number) => void; height?: number | string; children?: ReactNode }) {
  const mapType = useSettings((s) => s.mapType);
  const language = useSettings((s) => s.language);
  const mapsKey = useBranding((s) => s.clientConfig.mapsKey);
  return (
    <div style={{ height: props.height ?? 420, position: 'relative' }} data-testid="patrol-map">
      <MapView provider={mapType} mapsKey={mapsKey} language={language} theme="normal" initialZoom={14} testId="patrol-mapview">
        <PointsLayer points={props.points} route={props.route} onSelect={props.onSelect} onPick={props.onPick} />
        {props.children}
      </MapView>
    </div>
  );
}
