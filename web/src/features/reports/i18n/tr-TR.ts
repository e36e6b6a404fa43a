export default {
  newWindow: 'Yeni pencerede aç',
  about: {
    online: 'Gün ve gruba göre çevrim içi telsizler.',
    fenceAlarmData: 'Telsiz ve döneme göre coğrafi sınır alarmları, müdahale edenler ve yanıt süreleriyle.',
    emergcyAlarmReport: 'Gün ve telsize göre SOS alarmları grafik olarak, yanıt süreleriyle.',
    emergcyAlarmData: 'Bir dönemin tüm SOS alarmları: konum, müdahale eden, kapatan ve notlar; dışa aktarılabilir.',
    loneworkAlarmData: 'Bir dönemin yalnız çalışan alarmları ve nedenleri; dışa aktarılabilir.',
    jobTickData: 'Bir dönemin iş emirleri ve durumları.',
    callDurationData: 'Telsiz ve gruba göre konuşma süresi.',
    gpsData: 'Bir telsizin bir dönemdeki konumları; dışa aktarılabilir.',
    messageData: 'Telsiz başına gönderilen ve alınan mesajlar; dışa aktarılabilir.',
  },
};
