import type { Shape } from '../../../i18n/types';
import type en from './en-US';

export default {
  title: 'Настройки',
  tabs: { general: 'Общие', skin: 'Оформление', sounds: 'Звуки', keys: 'Горячие клавиши' },
  language: 'Язык',
  mapType: { label: 'Тип карты', google: 'Google', amap: 'Amap', osm: 'Карта OpenStreetMap' },
  audioPriority: { label: 'Приоритет воспроизведения', latest: 'Сначала последний говорящий', ownGroup: 'Сначала моя текущая группа', dispatcherFirst: 'Сначала диспетчеры' },
  hideOffline: 'Скрывать терминалы не в сети',
  hideDispatcher: 'Скрывать диспетчеров',
  muteStatus: 'Без звука',
  skin: {
    theme: 'Тема',
    dark: 'Тёмная',
    light: 'Светлая',
    moonSilver: 'Лунное серебро',
    phantomBlack: 'Чёрный фантом',
    primary: 'Основной цвет',
    colors: { blue: 'Синий', green: 'Зелёный', redsea: 'Красное море', sfsp: 'Бирюзовый', safe: 'Сигнальный оранжевый' },
  },
  volume: { volume: 'Громкость', alarmVolume: 'Громкость тревог', noticeVolume: 'Громкость уведомлений', videoCallVolume: 'Громкость видеозвонков' },
  sounds: { alarm: 'Звук тревоги', message: 'Звук сообщения', notice: 'Звук уведомления', callTone: 'Сигнал вызова' },
  keys: { ptt: 'Нажми и говори', hangup: 'Завершить', mute: 'Без звука', hint: 'Щёлкните по полю и нажмите нужную клавишу.' },
} satisfies Shape<typeof en>;
