export default {
  newWindow: 'Open in a new window',
  about: {
    online: 'Terminals online per day and group.',
    fenceAlarmData: 'Geofence alarms per terminal and period, with responders and response times.',
    emergcyAlarmReport: 'SOS alarms per day and terminal as charts, with the response times.',
    emergcyAlarmData: 'Every SOS alarm of a period: place, responder, closer and remarks; exportable.',
    loneworkAlarmData: 'Lone-worker alarms of a period with their reasons; exportable.',
    jobTickData: 'Job tickets of a period and their states.',
    callDurationData: 'Talk time per terminal and group.',
    gpsData: 'Positions of a terminal over a period; exportable.',
    messageData: 'Messages sent and received per terminal; exportable.',
  },
};
