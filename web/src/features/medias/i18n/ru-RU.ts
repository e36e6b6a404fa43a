import type { Shape } from '../../../i18n/types';
import type en from './en-US';

const t: Shape<typeof en> = {
  title: 'Медиаоблако',
  terminals: 'Терминалы (все)',
  terminal: 'Терминал',
  kind: 'Тип (все)',
  kinds: {
    image: 'Фото',
    video: 'Видео',
    audio: 'Аудио',
  },
  search: 'Найти',
  empty: 'За этот период нет фото, видео и записей',
  download: 'Скачать',
  close: 'Закрыть',
  taken: 'Снято',
  size: 'Размер',
  position: 'Координаты',
  error: 'Не удалось загрузить список медиа (код {{code}}).',
};
export default t;
