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
      id: 'voice',
      title: 'Parler (alternat)',
      body: [
        'Maintenez la barre d’espace, ou le bouton PTT du panneau vocal en bas à droite, pour parler à votre groupe de conversation ; relâchez pour écouter. La touche se change dans les Réglages et fonctionne aussi dans les fenêtres supplémentaires.',
        'Le panneau vocal liste les appels ouverts : qui parle, depuis combien de temps, et le temps d’accès mesuré. L’orateur est mis en évidence dans l’arborescence. Un terminal en SOS obtient toujours la parole en premier ; un répartiteur reprend la parole à un terminal.',
        'Depuis le menu d’un terminal, vous pouvez l’appeler seul (il sonne jusqu’à ce qu’il réponde) ou écouter discrètement son micro. « Appel temporaire » appelle les terminaux cochés ; « Appel général » et « Diffusion » atteignent tous les terminaux, et une diffusion n’admet pas de réponse.',
        'Surveillez des groupes depuis le menu de groupe pour en entendre plusieurs à la fois. Quand deux parlent ensemble, la priorité de lecture audio des Réglages décide lequel vous entendez : le plus récent, votre groupe d’abord ou les répartiteurs d’abord ; l’autre est affiché comme parlant et un clic suffit pour basculer.',
        'Enregistrements vocaux liste chaque prise de parole par période, terminal, groupe et type d’appel ; écoutez-la dans la liste ou téléchargez-la. Les enregistrements en définition standard (SD) ne peuvent être ni écoutés ni téléchargés.',
      ],
    },
    {
      id: 'map',
      title: 'Carte et traces',
      body: [
        'GPS et carte affiche chaque terminal qui a une position : vert en ligne, gris hors ligne, bleu en train de parler, rouge en SOS, estompé quand la position est ancienne. En dézoomant, les marqueurs se regroupent ; survolez un groupe pour en lister les terminaux et cliquez sur un terminal pour ses détails, un appel, un message ou sa trace.',
        'Les outils mesurent distances et surfaces, changent de fournisseur et de thème de carte et listent les terminaux visibles. Si les tuiles ne sont pas joignables, une carte du monde intégrée s’affiche.',
        'Géoclôtures : tracez un polygone, un cercle ou un rectangle, nommez-le, choisissez « dedans » (alarme en sortant) ou « dehors » (alarme en entrant) et affectez des terminaux. Chaque franchissement déclenche une alarme sonore.',
        'Trace : choisissez un terminal et une période dans un même mois civil pour voir son parcours avec la distance, les vitesses et les arrêts, et rejouez-le jusqu’à 20 fois plus vite.',
      ],
    },
    {
      id: 'messages',
      title: 'Messages, tonalités et médias',
      body: [
        'Messages affiche une conversation par terminal et par groupe, avec le nombre de non-lus. Écrivez du texte ou joignez photos et fichiers (une barre montre l’envoi) et suivez chaque message d’envoyé à remis. Un message à un terminal hors ligne est conservé et remis à son retour.',
        'Les tonalités sont de courtes alertes sonores : ajoutez-en une avec un son et une icône, puis envoyez-la à des terminaux ou à un groupe.',
        'Le nuage multimédia montre les photos, vidéos et enregistrements envoyés par les terminaux, filtrés par terminal et par date ; ouvrez-en un pour le prévisualiser ou le télécharger.',
      ],
    },
    {
      id: 'alarms',
      title: 'Alarmes SOS',
      body: [
        'Un SOS interrompt ce que vous faites : une alarme sonne en boucle au volume d’alarme et le navigateur affiche une notification, même si l’onglet est en arrière-plan. Acquittez-la pour arrêter le son ; tant que personne ne le fait, elle est annoncée de nouveau.',
        'Depuis l’alarme, vous pouvez situer le terminal sur la carte, l’appeler, l’écouter et clore l’alarme avec une remarque ; le terminal est invité à cesser d’alarmer. Gestion SOS liste les alarmes en cours et passées avec des filtres.',
      ],
    },
    {
      id: 'lonework',
      title: 'Travailleurs isolés',
      body: [
        'Un plan travailleur isolé vérifie un à quatre terminaux à intervalle fixe pendant une période de travail. Chaque terminal est invité à se signaler ; s’il ne répond pas à temps, se déconnecte, n’a plus de batterie, a un signal faible ou est occupé, une alarme avec ce motif apparaît. Un plan ne peut pas être modifié pendant son exécution, en alarme ou une fois terminé.',
      ],
    },
    {
      id: 'reports',
      title: 'Rapports',
      body: [
        'Rapports ouvre les écrans de rapport : graphiques et listes des alarmes SOS, alarmes travailleur isolé, alarmes de géoclôture, données GPS et données de messages. Chacun porte sur un mois civil au plus et s’exporte vers Excel.',
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
