import type { Shape } from '../../../i18n/types';
import type en from './en-US';

export default {
  empty: 'Todavía no hay registros.',
  live: 'Registro de operaciones en directo',
  history: 'Historial',
  filterType: 'Tipo',
  filterAccount: 'Cuenta',
  col: { date: 'Hora', type: 'Tipo', name: 'Nombre', account: 'Cuenta', remark: 'Observación' },
  types: {
    '0': 'Grupo temporal creado', '1': 'Grupo temporal cancelado', '2': 'Llamada de voz iniciada', '3': 'Llamada finalizada',
    '4': 'Salida del grupo temporal', '5': 'Conectado', '6': 'Desconectado', '7': 'Sesión iniciada en otro dispositivo',
    '8': 'Cambio de grupo', '9': 'Ajustes de llamada', '15': 'Grupo temporal eliminado', '100': 'Inicio de sesión', '101': 'Informe GPS',
    '102': 'Alarma', '103': 'Mensaje', '104': 'Grupo temporal editado', '105': 'Llamada individual establecida',
    '106': 'Llamada individual cancelada', '107': 'Llamada perdida', '108': 'Escucha de grupo iniciada', '109': 'Escucha de terminal iniciada',
    '110': 'Escucha de grupo detenida', '111': 'Escucha de terminal detenida', '112': 'Cambio de tipo de llamada', '113': 'Geocerca creada',
    '114': 'Geocerca eliminada', '115': 'Geocerca editada', '116': 'Búsqueda de alarmas', '117': 'Consulta de recorrido',
    '118': 'Alarma cancelada', '119': 'Alarma cerrada a distancia', '120': 'Trabajador aislado configurado', '121': 'Trabajador aislado editado',
    '122': 'Trabajador aislado eliminado', '123': 'Búsqueda de grabaciones', '124': 'Grabación descargada', '125': 'Consulta de grabaciones',
    '126': 'Consulta de voz', '127': 'Alarma de geocerca cancelada', '128': 'Videollamada', '129': 'Tono enviado', '130': 'Videomonitorización',
    unknown: 'Tipo {{type}}',
  },
} satisfies Shape<typeof en>;
