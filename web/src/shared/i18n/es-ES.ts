import type { Shape } from '../../i18n/types';
import type en from './en-US';

export default {
  errors: { tokenTimeout: 'Su sesión ha caducado (ds token timeout). Vuelva a iniciar sesión.', replaced: 'Esta cuenta ha iniciado sesión en otro dispositivo.' },
  ok: 'Aceptar',
  cancel: 'Cancelar',
} satisfies Shape<typeof en>;
