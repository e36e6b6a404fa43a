export default {
  newWindow: 'Ouvrir dans une nouvelle fenêtre',
  about: {
    online: 'Terminaux en ligne par jour et par groupe.',
    fenceAlarmData: 'Alarmes de géoclôture par terminal et période, avec les intervenants et les délais de réponse.',
    emergcyAlarmReport: 'Alarmes SOS par jour et par terminal en graphiques, avec les délais de réponse.',
    emergcyAlarmData: 'Toutes les alarmes SOS d’une période : lieu, intervenant, clôture et remarques ; exportable.',
    loneworkAlarmData: 'Alarmes travailleur isolé d’une période avec leur motif ; exportable.',
    jobTickData: 'Bons de travail d’une période et leur état.',
    callDurationData: 'Temps de parole par terminal et par groupe.',
    gpsData: 'Positions d’un terminal sur une période ; exportable.',
    messageData: 'Messages envoyés et reçus par terminal ; exportable.',
  },
};
