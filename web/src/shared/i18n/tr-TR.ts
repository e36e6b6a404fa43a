import type { Shape } from '../../i18n/types';
import type en from './en-US';

export default {
  errors: { tokenTimeout: 'Oturumunuzun süresi doldu (ds token timeout). Lütfen yeniden giriş yapın.', replaced: 'Bu hesapla başka bir cihazdan giriş yapıldı.' },
  ok: 'Tamam',
  cancel: 'İptal',
  range: {
    start: 'Başlangıç zamanı',
    end: 'Bitiş zamanı',
    required: 'Başlangıç ve bitiş zamanı seçin',
    order: 'Başlangıç zamanı bitişten sonra',
    tooLong: 'Dönem en fazla 31 gün olabilir',
    crossMonth: 'Aylar arası sorgu desteklenmiyor',
  },
} satisfies Shape<typeof en>;
