import type { Shape } from '../../../i18n/types';
import type en from './en-US';

export default {
  title: 'Ajustes',
  tabs: { general: 'General', skin: 'Apariencia', sounds: 'Sonidos', keys: 'Teclas rápidas' },
  language: 'Idioma',
  mapType: { label: 'Tipo de mapa', google: 'Google', amap: 'Amap', osm: 'Mapa de OpenStreetMap' },
  audioPriority: { label: 'Prioridad de reproducción de audio', latest: 'Primero el último que habla', ownGroup: 'Primero mi grupo actual', dispatcherFirst: 'Primero los operadores' },
  hideOffline: 'Ocultar terminales desconectados',
  hideDispatcher: 'Ocultar operadores',
  muteStatus: 'Silenciar',
  skin: {
    theme: 'Tema',
    dark: 'Oscuro',
    light: 'Claro',
    moonSilver: 'Plata lunar',
    phantomBlack: 'Negro fantasma',
    primary: 'Color principal',
    colors: { blue: 'Azul', green: 'Verde', redsea: 'Mar Rojo', sfsp: 'Verde azulado', safe: 'Naranja de seguridad' },
  },
  volume: { volume: 'Volumen', alarmVolume: 'Volumen de alarma', noticeVolume: 'Volumen de avisos', videoCallVolume: 'Volumen de videollamada' },
  sounds: { alarm: 'Sonido de alarma', message: 'Sonido de mensaje', notice: 'Sonido de aviso', callTone: 'Tono de llamada' },
  keys: { ptt: 'Pulsar para hablar', hangup: 'Colgar', mute: 'Silenciar', hint: 'Haga clic en el campo y pulse la tecla que desea usar.' },
} satisfies Shape<typeof en>;
