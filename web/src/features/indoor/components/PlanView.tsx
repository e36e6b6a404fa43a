// The plan view: an SVG whose viewBox is the floor image's pixels (docs/adr/0023) — the plan, its beacons, the
// terminals on it (a dot, its name and an accuracy circle in metres) and, during a history playback, the track.
// A click on the plan reports plan pixels (placing a beacon, picking reference points).
import { useRef, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Area, Beacon, Floor, Position } from '../api';
import { metresToPx } from '../plan';

interface Props {
  floor: Floor;
  positions: Position[];
  selected?: string;
  onSelect?: (msId: string) => void;
  /** The plan is clickable (placing a beacon, reference points). */
  onPlanClick?: (x: number, y: number) => void;
  onBeaconClick?: (b: Beacon) => void;
  /** History playback: the track drawn under the terminals. */
  track?: Position[];
  /** Reference points being picked. */
  marks?: { x: number; y: number }[];
  /** Draw the floor's walkable areas (editing them); a click on one reports it. */
  showAreas?: boolean;
  onAreaClick?: (a: Area) => void;
  selectedArea?: number;
  /** A walkable area being drawn: its corners so far. */
  draft?: [number, number][];
}

const AREA_COLOR = '#52c41a';

const TERMINAL_COLOR = '#1677ff';
const SELECTED_COLOR = '#d4380d';

export function PlanView({ floor, positions, selected, onSelect, onPlanClick, onBeaconClick, track, marks, showAreas, onAreaClick, selectedArea, draft }: Props) {
  const { t } = useTranslation('indoor');
  const uncertainText = t('terminals.uncertain');
  const svg = useRef<SVGSVGElement>(null);
  // Sizes in plan pixels that read the same whatever the plan's resolution: a fraction of its larger side.
  const unit = Math.max(floor.width, floor.height) / 120;

  const click = (e: MouseEvent<SVGSVGElement>) => {
    if (!onPlanClick || !svg.current) return;
    const m = svg.current.getScreenCTM();
    if (!m) return;
    const pt = new DOMPoint(e.clientX, e.clientY).matrixTransform(m.inverse());
    if (pt.x < 0 || pt.y < 0 || pt.x > floor.width || pt.y > floor.height) return;
    onPlanClick(Math.round(pt.x * 100) / 100, Math.round(pt.y * 100) / 100);
  };

  return (
    <svg
      ref={svg}
      data-testid="indoor-plan"
      role="img"
      aria-label={t('plan.aria', { floor: floor.name })}
      viewBox={`0 0 ${floor.width} ${floor.height}`}
      preserveAspectRatio="xMidYMid meet"
      style={{ width: '100%', height: '100%', cursor: onPlanClick ? 'crosshair' : 'default', background: 'var(--ant-color-bg-container, #fff)' }}
      onClick={click}
    >
      <image href={floor.url} x={0} y={0} width={floor.width} height={floor.height} preserveAspectRatio="none" />
      {showAreas &&
        (floor.areas ?? []).map((a) => (
          <polygon
            key={a.id}
            data-testid="indoor-area"
            data-area-id={a.id}
            points={a.points.map(([x, y]) => `${x},${y}`).join(' ')}
            fill={AREA_COLOR}
            fillOpacity={a.id === selectedArea ? 0.35 : 0.18}
            stroke={a.id === selectedArea ? SELECTED_COLOR : AREA_COLOR}
            strokeWidth={unit / 6}
            style={{ cursor: onAreaClick ? 'pointer' : 'default' }}
            onClick={(e) => {
              if (!onAreaClick) return;
              e.stopPropagation();
              onAreaClick(a);
            }}
          >
            <title>{a.name || t('area.unnamed')}</title>
          </polygon>
        ))}
      {draft && draft.length > 0 && (
        <g data-testid="indoor-area-draft" data-points={draft.length} pointerEvents="none">
          <polygon points={draft.map(([x, y]) => `${x},${y}`).join(' ')} fill={SELECTED_COLOR} fillOpacity={0.12} stroke={SELECTED_COLOR} strokeWidth={unit / 5} strokeDasharray={`${unit / 2} ${unit / 3}`} />
          {draft.map(([x, y], i) => (
            <circle key={i} cx={x} cy={y} r={unit * 0.45} fill="#fff" stroke={SELECTED_COLOR} strokeWidth={unit / 6} />
          ))}
        </g>
      )}
      {track && track.length > 1 && (
        <polyline
          data-testid="indoor-track"
          points={track.map((p) => `${p.x},${p.y}`).join(' ')}
          fill="none"
          stroke={SELECTED_COLOR}
          strokeOpacity={0.6}
          strokeWidth={unit / 3}
          strokeLinejoin="round"
        />
      )}
      {floor.beacons.map((b) => (
        <g
          key={b.id}
          data-testid="indoor-beacon"
          data-mac={b.mac}
          transform={`translate(${b.x} ${b.y})`}
          style={{ cursor: onBeaconClick ? 'pointer' : 'default' }}
          onClick={(e) => {
            if (!onBeaconClick) return;
            e.stopPropagation();
            onBeaconClick(b);
          }}
        >
          <title>{`${b.name || b.mac} · ${b.mac} · ${t('beacon.rssi')} ${b.rssi} dBm · ${t('beacon.decay')} ${b.decay}`}</title>
          <rect x={-unit * 0.6} y={-unit * 0.6} width={unit * 1.2} height={unit * 1.2} rx={unit * 0.2} fill="#13c2c2" stroke="#fff" strokeWidth={unit / 6} />
        </g>
      ))}
      {positions.map((p) => {
        const sel = p.msId === selected;
        const color = sel ? SELECTED_COLOR : TERMINAL_COLOR;
        return (
          <g
            key={p.msId}
            data-testid="indoor-terminal"
            data-ms-id={p.msId}
            data-x={p.x}
            data-y={p.y}
            data-uncertain={p.uncertain ? 'true' : 'false'}
            transform={`translate(${p.x} ${p.y})`}
            style={{ cursor: onSelect ? 'pointer' : 'default', transition: 'transform 0.9s linear' }}
            onClick={(e) => {
              if (!onSelect) return;
              e.stopPropagation();
              onSelect(p.msId);
            }}
          >
            <title>{`${p.name || p.msId} ± ${p.accuracy.toFixed(1)} m${p.uncertain ? ` · ${uncertainText}` : ''}`}</title>
            <circle r={metresToPx(p.accuracy, floor, unit)} fill={color} fillOpacity={0.12} stroke={color} strokeOpacity={0.4} strokeWidth={unit / 8} strokeDasharray={p.uncertain ? `${unit / 2} ${unit / 2}` : undefined} />
            {/* an uncertain position (no 3 m promise, ADR 0023) is a hollow dot */}
            <circle r={unit * 0.8} fill={p.uncertain ? '#fff' : color} stroke={p.uncertain ? color : '#fff'} strokeWidth={unit / 4} />
            <text
              y={-unit * 1.4}
              textAnchor="middle"
              fontSize={unit * 1.6}
              fontWeight={600}
              fill="#1f1f1f"
              stroke="#fff"
              strokeWidth={unit / 3}
              paintOrder="stroke"
            >
              {p.name || p.msId}
            </text>
          </g>
        );
      })}
      {marks?.map((m, i) => (
        <g key={i} transform={`translate(${m.x} ${m.y})`}>
          <circle r={unit * 0.7} fill="none" stroke={SELECTED_COLOR} strokeWidth={unit / 4} />
          <text y={-unit} textAnchor="middle" fontSize={unit * 1.5} fill={SELECTED_COLOR}>
            {i + 1}
          </text>
        </g>
      ))}
    </svg>
  );
}
