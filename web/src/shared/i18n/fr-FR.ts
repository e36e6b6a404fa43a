import type { Shape } from '../../i18n/types';
import type en from './en-US';

export default {
  errors: { tokenTimeout: 'Votre session a expiré (ds token timeout). Veuillez vous reconnecter.', replaced: 'Ce compte s’est connecté sur un autre appareil.' },
  ok: 'OK',
  cancel: 'Annuler',
} satisfies Shape<typeof en>;
