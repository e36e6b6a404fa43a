// The one delete action of a CRUD row (issue 31): a confirmation, the removal, a word that it is done, the lists
// it makes stale refreshed, and a failure worded by useErrorText in the feature's namespace. A panel declares what
// it removes and what to refresh; it writes no try/catch of its own.
import type { CSSProperties, ReactNode } from 'react';
import { App, Button, Popconfirm } from 'antd';
import { DeleteOutlined } from '@ant-design/icons';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useErrorText } from '../errorText';

export interface Removal {
  /** The feature whose own codes word a failure. */
  ns: string;
  remove: () => Promise<unknown>;
  /** The queries the removal makes stale. */
  invalidate?: readonly QueryKey[];
  /** Said once it is done (nothing when the screen shows it by itself). */
  done?: string;
  onDone?: () => void;
  /** After the failure is shown (a 404 means someone else removed it first). */
  onError?: (e: unknown) => void;
}

/** The removal as a function for a confirmation of another shape. */
export function useRemove({ ns, remove, invalidate = [], done, onDone, onError }: Removal): () => Promise<void> {
  const { message } = App.useApp();
  const qc = useQueryClient();
  const errorText = useErrorText(ns);
  return async () => {
    try {
      await remove();
    } catch (e) {
      message.error(errorText(e));
      onError?.(e);
      return;
    }
    if (done) message.success(done);
    invalidate.forEach((queryKey) => void qc.invalidateQueries({ queryKey }));
    onDone?.();
  };
}

interface Props extends Removal {
  /** The question. */
  confirm: ReactNode;
  description?: ReactNode;
  /** The button's name (also its aria-label); shown as text unless iconOnly. */
  label: string;
  iconOnly?: boolean;
  okText?: string;
  cancelText?: string;
  size?: 'small' | 'middle';
  testId?: string;
  className?: string;
  style?: CSSProperties;
  /** data-* attributes of the button. */
  data?: Record<`data-${string}`, string | number>;
}

/** A danger button that asks, then removes (useRemove). */
export function RemoveButton({ confirm, description, label, iconOnly = true, okText, cancelText, size = 'small', testId, className, style, data, ...removal }: Props) {
  const run = useRemove(removal);
  return (
    <Popconfirm title={confirm} description={description} okText={okText} cancelText={cancelText} okButtonProps={{ danger: true }} onConfirm={run}>
      <Button danger size={size} icon={<DeleteOutlined />} aria-label={label} title={iconOnly ? label : undefined} className={className} style={style} data-testid={testId} {...data}>
        {iconOnly ? null : label}
      </Button>
    </Popconfirm>
  );
}
