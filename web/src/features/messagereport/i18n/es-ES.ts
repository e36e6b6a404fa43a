import type { Shape } from '../../../i18n/types';
import type en from './en-US';

const t: Shape<typeof en> = {
  title: 'Datos de mensajes',
  terminals: 'Terminales (todos)',
  search: 'Buscar',
  export: 'Exportar a Excel',
  exported: 'Se exportaron {{count}} mensajes.',
  error: 'No se pudieron cargar los datos de mensajes (código {{code}}).',
  summary: 'Resumen',
  messages: 'Mensajes',
  dispatchCenter: 'Centro de despacho',
  read: 'Leído',
  unread: 'No leído',
  kinds: {
    text: 'Texto',
    image: 'Foto',
    file: 'Archivo',
    audio: 'Audio',
    video: 'Vídeo',
  },
  states: {
    pending: 'Pendiente',
    partial: 'Entregado en parte',
    delivered: 'Entregado',
  },
  col: {
    terminal: 'Terminal',
    sent: 'Enviados',
    received: 'Recibidos',
    delivered: 'Entregados',
    time: 'Hora',
    from: 'De',
    to: 'Para',
    type: 'Tipo',
    content: 'Contenido',
    file: 'Archivo',
    delivery: 'Entrega',
  },
};
export default t;
