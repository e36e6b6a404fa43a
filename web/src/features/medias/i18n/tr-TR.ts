import type { Shape } from '../../../i18n/types';
import type en from './en-US';

const t: Shape<typeof en> = {
  title: 'Medya bulutu',
  terminals: 'Terminaller (tümü)',
  terminal: 'Terminal',
  kind: 'Tür (tümü)',
  kinds: {
    image: 'Fotoğraf',
    video: 'Video',
    audio: 'Ses',
  },
  search: 'Ara',
  empty: 'Bu dönemde fotoğraf, video veya kayıt yok',
  download: 'İndir',
  close: 'Kapat',
  taken: 'Çekim zamanı',
  size: 'Boyut',
  position: 'Konum',
  error: 'Medya listesi yüklenemedi (kod {{code}}).',
};
export default t;
