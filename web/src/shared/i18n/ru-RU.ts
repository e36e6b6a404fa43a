import type { Shape } from '../../i18n/types';
import type en from './en-US';

export default {
  errors: { tokenTimeout: 'Сеанс истёк (ds token timeout). Войдите снова.', replaced: 'В эту учётную запись вошли с другого устройства.' },
  ok: 'ОК',
  cancel: 'Отмена',
} satisfies Shape<typeof en>;
