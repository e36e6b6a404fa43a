import type { Shape } from '../../../i18n/types';
import type en from './en-US';

const t: Shape<typeof en> = {
  title: 'Données des messages',
  terminals: 'Terminaux (tous)',
  search: 'Rechercher',
  export: 'Exporter vers Excel',
  exported: '{{count}} messages exportés.',
  error: "Les données des messages n'ont pas pu être chargées (code {{code}}).",
  summary: 'Synthèse',
  messages: 'Messages',
  dispatchCenter: 'Centre de répartition',
  read: 'Lu',
  unread: 'Non lu',
  kinds: {
    text: 'Texte',
    image: 'Photo',
    file: 'Fichier',
    audio: 'Audio',
    video: 'Vidéo',
  },
  states: {
    pending: 'En attente',
    partial: 'Remis en partie',
    delivered: 'Remis',
  },
  col: {
    terminal: 'Terminal',
    sent: 'Envoyés',
    received: 'Reçus',
    delivered: 'Remis',
    time: 'Heure',
    from: 'De',
    to: 'À',
    type: 'Type',
    content: 'Contenu',
    file: 'Fichier',
    delivery: 'Remise',
  },
};
export default t;
