import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Form, Input, Modal, TreeSelect } from 'antd';
import { textLength } from '../../../shared/utils/text';

export interface ParentOption {
  value: string;
  title: string;
  children?: ParentOption[];
}

export interface NameDialogProps {
  open: boolean;
  title: string;
  initialName?: string;
  /** Maximum display length (non-Latin characters count 2); omitted = no limit. */
  maxLength?: number;
  /** Names already taken (compared case-insensitively). */
  taken?: string[];
  /** Shows a parent-group picker (fixed-group creation, moving a terminal). */
  parentOptions?: ParentOption[];
  parentLabel?: string;
  initialParent?: string;
  hideName?: boolean;
  extra?: React.ReactNode;
  onOk: (v: { name: string; parent?: string }) => Promise<void>;
  onClose: () => void;
}

/** One small form for names: temp/fixed group creation, renames, moves. */
export function NameDialog(p: NameDialogProps) {
  const { t } = useTranslation('dispatch');
  const [form] = Form.useForm<{ name: string; parent?: string }>();
  useEffect(() => {
    if (p.open) form.setFieldsValue({ name: p.initialName ?? '', parent: p.initialParent });
  }, [p.open]); // eslint-disable-line react-hooks/exhaustive-deps

  const ok = async () => {
    const v = await form.validateFields();
    await p.onOk({ name: (v.name ?? '').trim(), parent: v.parent });
  };

  return (
    <Modal open={p.open} title={p.title} onOk={ok} onCancel={p.onClose} destroyOnHidden data-testid="name-dialog">
      <Form form={form} layout="vertical" requiredMark={false}>
        {!p.hideName && (
          <Form.Item
            name="name"
            label={t('form.name')}
            rules={[
              { required: true, whitespace: true, message: t('form.nameRequired') },
              {
                validator: (_, v: string) =>
                  p.maxLength && v && textLength(v.trim()) > p.maxLength ? Promise.reject(new Error(t('form.nameTooLong', { max: p.maxLength }))) : Promise.resolve(),
              },
              {
                validator: (_, v: string) =>
                  v && (p.taken ?? []).some((n) => n.toLowerCase() === v.trim().toLowerCase() && n !== p.initialName)
                    ? Promise.reject(new Error(t('form.nameExists')))
                    : Promise.resolve(),
              },
            ]}
          >
            <Input autoFocus data-testid="name-input" />
          </Form.Item>
        )}
        {p.parentOptions && (
          <Form.Item name="parent" label={p.parentLabel} rules={[{ required: true, message: t('form.groupRequired') }]}>
            <TreeSelect treeData={p.parentOptions} treeDefaultExpandAll showSearch treeNodeFilterProp="title" data-testid="parent-select" />
          </Form.Item>
        )}
        {p.extra}
      </Form>
    </Modal>
  );
}
