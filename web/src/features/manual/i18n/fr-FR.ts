import type { Shape } from '../../../i18n/types';
import type en from './en-US';

export default {
  title: 'Manuel utilisateur',
  intro: 'Ce que fait cette version de la console de dispatch, et comment l’utiliser.',
  sections: [
    {
      id: 'signin',
      title: 'Connexion',
      body: [
        'Saisissez votre compte répartiteur à 8 chiffres et votre mot de passe, puis choisissez Se connecter. Seuls les comptes répartiteur peuvent utiliser la console ; un compte de terminal est refusé avec « type de compte incorrect ».',
        'Cochez « Mémoriser le mot de passe » pour que le navigateur remplisse le formulaire la prochaine fois. Le mot de passe est stocké chiffré avec une clé qui ne quitte jamais ce navigateur.',
        'Après cinq mots de passe erronés d’affilée, le compte est verrouillé pendant 10 minutes. « Mot de passe oublié ? » envoie un code de vérification à l’adresse e-mail associée au compte et permet d’en choisir un nouveau.',
      ],
    },
    {
      id: 'shell',
      title: 'La fenêtre principale',
      body: [
        'Le menu du haut liste, dans un ordre fixe, les écrans accessibles à votre compte ; les moins courants sont sous « Plus ». Les écrans marqués « pas encore disponible dans cette version » arriveront dans les prochaines versions.',
        'À droite : le voyant de connexion en direct (vert une fois connecté), la langue, le commutateur sombre/clair, les Paramètres et le menu de votre compte (changer le mot de passe, notes de version, ce manuel, déconnexion).',
      ],
    },
    {
      id: 'tree',
      title: 'Groupes et terminaux',
      body: [
        'L’écran de dispatch affiche vos groupes fixes (avec leurs sous-groupes) et les groupes temporaires. Chaque terminal affiche l’icône de son type et son nom ; en ligne, son signal et sa batterie ; bloqué, une étiquette « Bloqué » ou « Neutralisé » ; hors ligne, sa dernière apparition. Un point signale les terminaux actuellement dans ce groupe.',
        'Tout se met à jour en direct : un terminal qui se connecte passe au vert sans recharger la page. Jusqu’à 30 groupes, les groupes s’affichent en onglets ; au-delà, en une seule arborescence défilante.',
        'Utilisez le champ de recherche pour trouver un terminal par nom ou identifiant, et les commutateurs pour masquer les terminaux hors ligne ou les répartiteurs. Cliquez sur un terminal pour voir ses détails dans le panneau d’informations.',
      ],
    },
    {
      id: 'groups',
      title: 'Groupes temporaires et fixes',
      body: [
        'Cochez des terminaux dans l’arborescence puis choisissez « Groupe temporaire » pour en créer un. Son nom est obligatoire, unique et limité à 20 caractères (les caractères non latins comptent double).',
        '« Nouveau groupe » crée un groupe fixe au niveau supérieur ou sous un groupe parent. Faites un clic droit sur un groupe pour le renommer, lui ajouter un sous-groupe, le supprimer ou y basculer votre propre groupe de conversation.',
      ],
    },
    {
      id: 'terminals',
      title: 'Gestion des terminaux',
      body: [
        'Faites un clic droit sur un terminal (ou utilisez les boutons du panneau d’informations) pour le renommer, le déplacer vers un autre groupe, changer son groupe actuel à distance, définir son avatar, ou encore le neutraliser, le bloquer et le réactiver. Ces trois dernières actions demandent toujours une confirmation.',
        'Neutraliser bloque un terminal temporairement, bloquer le fait définitivement ; réactiver le remet en service normal.',
      ],
    },
    {
      id: 'log',
      title: 'Journal des opérations et fenêtres supplémentaires',
      body: [
        'Le journal des opérations affiche les événements les plus récents (terminaux en ligne et hors ligne, changements de groupe, paramètres d’appel…) au moment où ils se produisent. L’historique complet avec filtres se trouve sur l’écran Journaux.',
        '« Nouvelle fenêtre » ouvre un écran dans une fenêtre de navigateur séparée, pour un second moniteur. Les fenêtres supplémentaires restent connectées d’elles-mêmes.',
      ],
    },
    {
      id: 'settings',
      title: 'Paramètres, langues et apparence',
      body: [
        'Les paramètres regroupent les raccourcis clavier, les sons et volumes, le type de carte, la priorité de lecture audio, la langue et l’apparence. Les choix sont conservés dans ce navigateur.',
        'Apparences : sombre, clair, argent lunaire et noir fantôme, avec les couleurs principales bleu, vert, mer Rouge, sarcelle et orange sécurité. Un hôte doté de sa propre image de marque peut imposer la couleur à tous.',
        'Langues : anglais, chinois, turc, espagnol, français et russe. La console démarre dans la langue de votre navigateur si elle en fait partie, sinon en anglais.',
      ],
    },
  ],
} satisfies Shape<typeof en>;
