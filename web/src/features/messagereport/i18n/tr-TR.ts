import type { Shape } from '../../../i18n/types';
import type en from './en-US';

const t: Shape<typeof en> = {
  title: 'Mesaj verileri',
  terminals: 'Terminaller (tümü)',
  search: 'Ara',
  export: "Excel'e aktar",
  exported: '{{count}} mesaj aktarıldı.',
  error: 'Mesaj verileri yüklenemedi (kod {{code}}).',
  summary: 'Özet',
  messages: 'Mesajlar',
  dispatchCenter: 'Sevk merkezi',
  read: 'Okundu',
  unread: 'Okunmadı',
  kinds: {
    text: 'Metin',
    image: 'Fotoğraf',
    file: 'Dosya',
    audio: 'Ses',
    video: 'Video',
  },
  states: {
    pending: 'Bekliyor',
    partial: 'Kısmen teslim edildi',
    delivered: 'Teslim edildi',
  },
  col: {
    terminal: 'Terminal',
    sent: 'Gönderilen',
    received: 'Alınan',
    delivered: 'Teslim edilen',
    time: 'Zaman',
    from: 'Gönderen',
    to: 'Alıcı',
    type: 'Tür',
    content: 'İçerik',
    file: 'Dosya',
    delivery: 'Teslim',
  },
};
export default t;
