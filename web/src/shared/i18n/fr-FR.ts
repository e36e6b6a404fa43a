import type { Shape } from '../../i18n/types';
import type en from './en-US';

export default {
  errors: { tokenTimeout: 'Votre session a expiré (ds token timeout). Veuillez vous reconnecter.', replaced: 'Ce compte s’est connecté sur un autre appareil.' },
  ok: 'OK',
  cancel: 'Annuler',
  range: {
    start: 'Heure de début',
    end: 'Heure de fin',
    required: 'Choisissez une heure de début et une heure de fin',
    order: "L'heure de début est postérieure à l'heure de fin",
    tooLong: 'La période ne peut pas dépasser 31 jours',
    crossMonth: 'Les recherches sur plusieurs mois ne sont pas prises en charge',
  },
} satisfies Shape<typeof en>;
