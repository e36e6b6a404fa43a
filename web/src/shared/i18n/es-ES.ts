import type { Shape } from '../../i18n/types';
import type en from './en-US';

export default {
  errors: { tokenTimeout: 'Su sesión ha caducado (ds token timeout). Vuelva a iniciar sesión.', replaced: 'Esta cuenta ha iniciado sesión en otro dispositivo.' },
  ok: 'Aceptar',
  cancel: 'Cancelar',
  range: {
    start: 'Hora de inicio',
    end: 'Hora de fin',
    required: 'Elija una hora de inicio y una de fin',
    order: 'La hora de inicio es posterior a la de fin',
    tooLong: 'El periodo puede durar como máximo 31 días',
    crossMonth: 'No se admiten consultas entre meses',
  },
} satisfies Shape<typeof en>;
