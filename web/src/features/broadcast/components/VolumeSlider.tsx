// A volume (0–100) as a slider with its value beside it (issue 33: the broadcast sliders showed no number, so a
// speaker's volume could only be guessed from the handle's place). onCommit, when given, is told once the drag ends.
import { useEffect, useState } from 'react';
import { Slider, Space } from 'antd';

interface Props {
  value: number;
  onChange?: (v: number) => void;
  onCommit?: (v: number) => void;
  width?: number;
  disabled?: boolean;
  testId?: string;
}

export function VolumeSlider({ value, onChange, onCommit, width = 160, disabled, testId }: Props) {
  // The value shown follows the drag at once; a stored volume that changes (another console) replaces it.
  const [shown, setShown] = useState(value);
  useEffect(() => setShown(value), [value]);
  return (
    <Space size={8} data-testid={testId}>
      <Slider
        style={{ width }}
        min={0}
        max={100}
        disabled={disabled}
        value={shown}
        onChange={(v) => {
          setShown(v);
          onChange?.(v);
        }}
        onChangeComplete={onCommit}
      />
      <span className="volume-value" data-testid={testId && `${testId}-value`} style={{ minWidth: 28, textAlign: 'right', fontVariantNumeric: 'tabular-nums' }}>
        {shown}
      </span>
    </Space>
  );
}
