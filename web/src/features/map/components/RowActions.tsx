// The edit and delete links of a fence or mark row (delete asks first).
import { useTranslation } from 'react-i18next';
import { Button, Popconfirm } from 'antd';

export function EditDeleteLinks({ onEdit, confirm, onDelete }: { onEdit: () => void; confirm: string; onDelete: () => void }) {
  const { t } = useTranslation('map');
  return (
    <>
      <Button size="small" type="link" onClick={onEdit}>
        {t('edit')}
      </Button>
      <Popconfirm title={confirm} onConfirm={onDelete}>
        <Button size="small" type="link" danger>
          {t('delete')}
        </Button>
      </Popconfirm>
    </>
  );
}
