import type { Shape } from '../../i18n/types';
import type en from './en-US';

export default {
  errors: { tokenTimeout: 'Сеанс истёк (ds token timeout). Войдите снова.', replaced: 'В эту учётную запись вошли с другого устройства.' },
  ok: 'ОК',
  cancel: 'Отмена',
  range: {
    start: 'Время начала',
    end: 'Время окончания',
    required: 'Выберите время начала и окончания',
    order: 'Время начала позже времени окончания',
    tooLong: 'Период не может превышать 31 день',
    crossMonth: 'Запросы за несколько месяцев не поддерживаются',
  },
} satisfies Shape<typeof en>;
