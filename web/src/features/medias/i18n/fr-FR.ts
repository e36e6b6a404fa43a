import type { Shape } from '../../../i18n/types';
import type en from './en-US';

const t: Shape<typeof en> = {
  title: 'Cloud multimédia',
  terminals: 'Terminaux (tous)',
  terminal: 'Terminal',
  kind: 'Type (tous)',
  kinds: {
    image: 'Photo',
    video: 'Vidéo',
    audio: 'Audio',
  },
  search: 'Rechercher',
  empty: 'Aucune photo, vidéo ni enregistrement sur cette période',
  download: 'Télécharger',
  close: 'Fermer',
  taken: 'Prise le',
  size: 'Taille',
  position: 'Position',
  error: "La liste des médias n'a pas pu être chargée (code {{code}}).",
};
export default t;
