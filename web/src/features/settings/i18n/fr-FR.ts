import type { Shape } from '../../../i18n/types';
import type en from './en-US';

export default {
  title: 'Paramètres',
  tabs: { general: 'Général', skin: 'Apparence', sounds: 'Sons', keys: 'Raccourcis' },
  language: 'Langue',
  mapType: { label: 'Type de carte', google: 'Google', amap: 'Amap', osm: 'Carte OpenStreetMap' },
  audioPriority: { label: 'Priorité de lecture audio', latest: 'Dernier intervenant d’abord', ownGroup: 'Mon groupe actuel d’abord', dispatcherFirst: 'Répartiteurs d’abord' },
  hideOffline: 'Masquer les terminaux hors ligne',
  hideDispatcher: 'Masquer les répartiteurs',
  muteStatus: 'Muet',
  skin: {
    theme: 'Thème',
    dark: 'Sombre',
    light: 'Clair',
    moonSilver: 'Argent lunaire',
    phantomBlack: 'Noir fantôme',
    primary: 'Couleur principale',
    colors: { blue: 'Bleu', green: 'Vert', redsea: 'Mer Rouge', sfsp: 'Sarcelle', safe: 'Orange sécurité' },
  },
  volume: { volume: 'Volume', alarmVolume: 'Volume des alarmes', noticeVolume: 'Volume des notifications', videoCallVolume: 'Volume des appels vidéo' },
  sounds: { alarm: 'Son d’alarme', message: 'Son de message', notice: 'Son de notification', callTone: 'Tonalité d’appel' },
  keys: { ptt: 'Alternat (PTT)', hangup: 'Raccrocher', mute: 'Muet', hint: 'Cliquez dans le champ puis appuyez sur la touche à utiliser.' },
} satisfies Shape<typeof en>;
