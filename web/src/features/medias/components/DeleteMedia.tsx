// The delete action of one media-cloud item: asks first, then removes the item and its file for every dispatcher.
import { useTranslation } from 'react-i18next';
import { App, Button, Popconfirm } from 'antd';
import { DeleteOutlined } from '@ant-design/icons';
import { trimText } from '../../../shared/utils/text';
import { failureCode, useErrorText } from '../../../shared/errorText';
import { mediaApi, type MediaItem } from '../api';

interface Props {
  item: MediaItem;
  /** The item is gone: deleted now, or already by someone else ("404"). */
  onGone: (id: string) => void;
  /** An icon on a gallery card instead of a labelled button. */
  compact?: boolean;
}

export function DeleteMedia({ item, onGone, compact }: Props) {
  const { t } = useTranslation('medias');
  const { message } = App.useApp();
  const errorText = useErrorText('medias');
  const remove = () =>
    mediaApi.remove(item.id).then(
      () => {
        message.success(t('deleted'));
        onGone(item.id);
      },
      (e: unknown) => {
        message.error(errorText(e));
        if (failureCode(e) === '404') onGone(item.id);
      },
    );
  return (
    <Popconfirm
      title={t('confirmDelete', { name: trimText(item.name || item.fileId, 40) })}
      description={t('confirmDeleteHint')}
      okText={t('delete')}
      cancelText={t('cancel')}
      okButtonProps={{ danger: true }}
      onConfirm={remove}
    >
      <Button
        danger
        size={compact ? 'small' : 'middle'}
        className={compact ? 'media-delete' : undefined}
        icon={<DeleteOutlined />}
        aria-label={t('delete')}
        title={t('delete')}
        data-testid="media-delete"
        data-id={item.id}
      >
        {compact ? null : t('delete')}
      </Button>
    </Popconfirm>
  );
}
