import type { Shape } from '../../../i18n/types';
import type en from './en-US';

const t: Shape<typeof en> = {
  title: 'Nube multimedia',
  terminals: 'Terminales (todos)',
  terminal: 'Terminal',
  kind: 'Tipo (todos)',
  kinds: {
    image: 'Foto',
    video: 'Vídeo',
    audio: 'Audio',
  },
  search: 'Buscar',
  empty: 'No hay fotos, vídeos ni grabaciones en este periodo',
  download: 'Descargar',
  close: 'Cerrar',
  taken: 'Tomada',
  size: 'Tamaño',
  position: 'Posición',
  error: 'No se pudo cargar la lista multimedia (código {{code}}).',
};
export default t;
