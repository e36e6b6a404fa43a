// The message screens' file choosers: a button that opens the browser's file dialog. Its input stays hidden (the
// browser tests fill it directly) and is emptied after each pick, so the same file may be picked again.
import { useRef, type ReactNode } from 'react';
import { Button } from 'antd';

interface Props {
  icon: ReactNode;
  label: ReactNode;
  /** The file types offered (an input's accept); any when absent. */
  accept?: string;
  multiple?: boolean;
  disabled?: boolean;
  onPick: (files: File[]) => void;
  testId: string;
  inputTestId: string;
}

export function FileButton({ icon, label, accept, multiple, disabled, onPick, testId, inputTestId }: Props) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <span>
      <input
        ref={input}
        type="file"
        accept={accept}
        multiple={multiple}
        style={{ display: 'none' }}
        onChange={(e) => {
          onPick(Array.from(e.target.files ?? []));
          e.target.value = '';
        }}
        data-testid={inputTestId}
      />
      <Button icon={icon} onClick={() => input.current?.click()} disabled={disabled} data-testid={testId}>
        {label}
      </Button>
    </span>
  );
}
