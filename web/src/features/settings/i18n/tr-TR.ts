import type { Shape } from '../../../i18n/types';
import type en from './en-US';

export default {
  title: 'Ayarlar',
  tabs: { general: 'Genel', skin: 'Görünüm', sounds: 'Sesler', keys: 'Kısayol tuşları' },
  language: 'Dil',
  mapType: { label: 'Harita türü', google: 'Google', amap: 'Amap', osm: 'OpenStreetMap haritası' },
  audioPriority: { label: 'Ses çalma önceliği', latest: 'Son konuşan önce', ownGroup: 'Mevcut grubum önce', dispatcherFirst: 'Sevk görevlileri önce' },
  hideOffline: 'Çevrimdışı terminalleri gizle',
  hideDispatcher: 'Sevk görevlilerini gizle',
  muteStatus: 'Sessiz',
  skin: {
    theme: 'Tema',
    dark: 'Koyu',
    light: 'Açık',
    moonSilver: 'Ay gümüşü',
    phantomBlack: 'Hayalet siyahı',
    primary: 'Ana renk',
    colors: { blue: 'Mavi', green: 'Yeşil', redsea: 'Kızıldeniz', sfsp: 'Camgöbeği', safe: 'Güvenlik turuncusu' },
  },
  volume: { volume: 'Ses düzeyi', alarmVolume: 'Alarm ses düzeyi', noticeVolume: 'Bildirim ses düzeyi', videoCallVolume: 'Görüntülü arama ses düzeyi' },
  sounds: { alarm: 'Alarm sesi', message: 'Mesaj sesi', notice: 'Bildirim sesi', callTone: 'Arama tonu' },
  keys: { ptt: 'Bas-konuş', hangup: 'Kapat', mute: 'Sessiz', hint: 'Alana tıklayıp kullanmak istediğiniz tuşa basın.' },
} satisfies Shape<typeof en>;
