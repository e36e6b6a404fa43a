import type { Shape } from '../../i18n/types';
import type en from './en-US';

export default {
  errors: { tokenTimeout: 'Oturumunuzun süresi doldu (ds token timeout). Lütfen yeniden giriş yapın.', replaced: 'Bu hesapla başka bir cihazdan giriş yapıldı.' },
  ok: 'Tamam',
  cancel: 'İptal',
} satisfies Shape<typeof en>;
