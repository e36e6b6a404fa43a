export default {
  newWindow: 'Abrir en una ventana nueva',
  about: {
    online: 'Terminales conectados por día y grupo.',
    fenceAlarmData: 'Alarmas de geocerca por terminal y periodo, con quién respondió y en cuánto tiempo.',
    emergcyAlarmReport: 'Alarmas SOS por día y terminal en gráficos, con los tiempos de respuesta.',
    emergcyAlarmData: 'Todas las alarmas SOS de un periodo: lugar, quién respondió, quién cerró y observaciones; exportable.',
    loneworkAlarmData: 'Alarmas de trabajador aislado de un periodo con su motivo; exportable.',
    jobTickData: 'Órdenes de trabajo de un periodo y su estado.',
    callDurationData: 'Tiempo de conversación por terminal y grupo.',
    gpsData: 'Posiciones de un terminal en un periodo; exportable.',
    messageData: 'Mensajes enviados y recibidos por terminal; exportable.',
  },
};
