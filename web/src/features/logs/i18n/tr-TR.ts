import type { Shape } from '../../../i18n/types';
import type en from './en-US';

export default {
  empty: 'Henüz kayıt yok.',
  live: 'Canlı işlem kaydı',
  history: 'Geçmiş',
  filterType: 'Tür',
  filterAccount: 'Hesap',
  col: { date: 'Zaman', type: 'Tür', name: 'Ad', account: 'Hesap', remark: 'Not' },
  types: {
    '0': 'Geçici grup oluşturuldu', '1': 'Geçici grup iptal edildi', '2': 'Sesli görüşme başladı', '3': 'Görüşme bitti',
    '4': 'Geçici gruptan çıkıldı', '5': 'Çevrimiçi', '6': 'Çevrimdışı', '7': 'Başka cihazdan giriş yapıldı', '8': 'Grup değiştirildi',
    '9': 'Çağrı ayarları', '15': 'Geçici grup kaldırıldı', '100': 'Giriş', '101': 'GPS bildirimi', '102': 'Alarm', '103': 'Mesaj',
    '104': 'Geçici grup düzenlendi', '105': 'Bireysel çağrı kuruldu', '106': 'Bireysel çağrı iptal edildi', '107': 'Cevapsız çağrı',
    '108': 'Grup dinleme başladı', '109': 'Terminal dinleme başladı', '110': 'Grup dinleme durdu', '111': 'Terminal dinleme durdu',
    '112': 'Çağrı türü değiştirildi', '113': 'Coğrafi sınır oluşturuldu', '114': 'Coğrafi sınır silindi', '115': 'Coğrafi sınır düzenlendi',
    '116': 'Alarm kayıtları arandı', '117': 'İz sorgulandı', '118': 'Alarm iptal edildi', '119': 'Alarm uzaktan kapatıldı',
    '120': 'Yalnız çalışan ayarlandı', '121': 'Yalnız çalışan düzenlendi', '122': 'Yalnız çalışan kaldırıldı', '123': 'Ses kaydı arandı',
    '124': 'Ses kaydı indirildi', '125': 'Ses kaydı sorgulandı', '126': 'Ses sorgusu', '127': 'Sınır alarmı iptal edildi',
    '128': 'Görüntülü arama', '129': 'Ton gönderildi', '130': 'Video izleme',
    unknown: 'Tür {{type}}',
  },
} satisfies Shape<typeof en>;
