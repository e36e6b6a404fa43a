import type { Shape } from '../../../i18n/types';
import type en from './en-US';

export default {
  empty: 'Aucune entrée pour l’instant.',
  live: 'Journal des opérations en direct',
  history: 'Historique',
  filterType: 'Type',
  filterAccount: 'Compte',
  col: { date: 'Heure', type: 'Type', name: 'Nom', account: 'Compte', remark: 'Remarque' },
  types: {
    '0': 'Groupe temporaire créé', '1': 'Groupe temporaire annulé', '2': 'Appel vocal démarré', '3': 'Appel terminé',
    '4': 'Sortie du groupe temporaire', '5': 'En ligne', '6': 'Hors ligne', '7': 'Connexion depuis un autre appareil', '8': 'Changement de groupe',
    '9': 'Paramètres d’appel', '15': 'Groupe temporaire supprimé', '100': 'Connexion', '101': 'Position GPS', '102': 'Alarme', '103': 'Message',
    '104': 'Groupe temporaire modifié', '105': 'Appel individuel établi', '106': 'Appel individuel annulé', '107': 'Appel manqué',
    '108': 'Écoute de groupe démarrée', '109': 'Écoute de terminal démarrée', '110': 'Écoute de groupe arrêtée', '111': 'Écoute de terminal arrêtée',
    '112': 'Type d’appel changé', '113': 'Géoclôture créée', '114': 'Géoclôture supprimée', '115': 'Géoclôture modifiée',
    '116': 'Recherche d’alarmes', '117': 'Trajet consulté', '118': 'Alarme annulée', '119': 'Alarme close à distance',
    '120': 'Travailleur isolé défini', '121': 'Travailleur isolé modifié', '122': 'Travailleur isolé supprimé', '123': 'Recherche d’enregistrements',
    '124': 'Enregistrement téléchargé', '125': 'Enregistrements consultés', '126': 'Requête vocale', '127': 'Alarme de géoclôture annulée',
    '128': 'Appel vidéo', '129': 'Tonalité envoyée', '130': 'Surveillance vidéo',
    unknown: 'Type {{type}}',
  },
} satisfies Shape<typeof en>;
