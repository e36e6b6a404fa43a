export default {
  newWindow: '在新窗口中打开',
  about: {
    online: '按天和分组统计的在线终端。',
    fenceAlarmData: '按终端和时段查询电子围栏告警，含处理人和响应时间。',
    emergcyAlarmReport: '按天和终端统计的 SOS 告警图表及响应时间。',
    emergcyAlarmData: '某时段内的全部 SOS 告警：位置、处理人、关闭人和备注，可导出。',
    loneworkAlarmData: '某时段内的单人作业告警及原因，可导出。',
    jobTickData: '某时段内的工单及其状态。',
    callDurationData: '按终端和分组统计的通话时长。',
    gpsData: '终端在某时段内的位置，可导出。',
    messageData: '按终端统计的收发消息，可导出。',
  },
};
