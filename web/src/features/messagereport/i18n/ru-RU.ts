import type { Shape } from '../../../i18n/types';
import type en from './en-US';

const t: Shape<typeof en> = {
  title: 'Данные сообщений',
  terminals: 'Терминалы (все)',
  search: 'Найти',
  export: 'Экспорт в Excel',
  exported: 'Экспортировано сообщений: {{count}}.',
  error: 'Не удалось загрузить данные сообщений (код {{code}}).',
  summary: 'Сводка',
  messages: 'Сообщения',
  dispatchCenter: 'Диспетчерский центр',
  read: 'Прочитано',
  unread: 'Не прочитано',
  kinds: {
    text: 'Текст',
    image: 'Фото',
    file: 'Файл',
    audio: 'Аудио',
    video: 'Видео',
  },
  states: {
    pending: 'Ожидает',
    partial: 'Доставлено частично',
    delivered: 'Доставлено',
  },
  col: {
    terminal: 'Терминал',
    sent: 'Отправлено',
    received: 'Получено',
    delivered: 'Доставлено',
    time: 'Время',
    from: 'От',
    to: 'Кому',
    type: 'Тип',
    content: 'Содержание',
    file: 'Файл',
    delivery: 'Доставка',
  },
};
export default t;
