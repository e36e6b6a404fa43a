import {
  AlertOutlined,
  ApiOutlined,
  CustomerServiceOutlined,
  MobileOutlined,
  QuestionCircleOutlined,
  VideoCameraOutlined,
  WifiOutlined,
} from '@ant-design/icons';
import type { ReactNode } from 'react';
import type { TerminalKind } from '../../../shared/directory/model';

/** One icon per terminal type code (spec §3). */
export const KIND_ICON: Record<TerminalKind, ReactNode> = {
  dispatcher: <CustomerServiceOutlined />,
  app: <MobileOutlined />,
  gateway: <ApiOutlined />,
  radio: <WifiOutlined rotate={90} />,
  sos: <AlertOutlined />,
  camera: <VideoCameraOutlined />,
  other: <QuestionCircleOutlined />,
};

export function BatteryIcon({ level }: { level: number }) {
  const w = Math.max(0, Math.min(100, level)) / 100;
  const color = level <= 15 ? '#f5222d' : level <= 35 ? '#faad14' : '#52c41a';
  return (
    <svg width="18" height="10" viewBox="0 0 18 10" aria-hidden>
      <rect x="0.5" y="0.5" width="15" height="9" rx="1.5" fill="none" stroke="currentColor" opacity="0.6" />
      <rect x="16" y="3" width="1.5" height="4" fill="currentColor" opacity="0.6" />
      <rect x="2" y="2" width={12 * w} height="6" fill={color} />
    </svg>
  );
}

export function SignalIcon({ level }: { level: number }) {
  const bars = Math.max(0, Math.min(5, Math.round(level)));
  return (
    <svg width="14" height="10" viewBox="0 0 14 10" aria-hidden>
      {[0, 1, 2, 3, 4].map((i) => (
        <rect key={i} x={i * 3} y={8 - i * 2} width="2" height={2 + i * 2} fill="currentColor" opacity={i < bars ? 0.9 : 0.2} />
      ))}
    </svg>
  );
}
