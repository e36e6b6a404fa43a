import type { Shape } from '../../../i18n/types';
import type en from './en-US';

export default {
  title: '设置',
  tabs: { general: '常规', skin: '皮肤', sounds: '声音', keys: '快捷键' },
  language: '语言',
  mapType: { label: '地图类型', google: '谷歌地图', amap: '高德地图', osm: 'OpenStreetMap 开放地图' },
  audioPriority: { label: '音频播放优先级', latest: '最新讲话者优先', ownGroup: '我的当前群组优先', dispatcherFirst: '调度员优先' },
  hideOffline: '隐藏离线终端',
  hideDispatcher: '隐藏调度员',
  muteStatus: '静音',
  skin: {
    theme: '主题',
    dark: '深色',
    light: '浅色',
    moonSilver: '月光银',
    phantomBlack: '幻影黑',
    primary: '主色',
    colors: { blue: '蓝色', green: '绿色', redsea: '红海', sfsp: '青色', safe: '安全橙' },
  },
  volume: { volume: '音量', alarmVolume: '告警音量', noticeVolume: '提示音量', videoCallVolume: '视频通话音量' },
  sounds: { alarm: '告警声音', message: '消息声音', notice: '提示声音', callTone: '呼叫铃声' },
  keys: { ptt: '按键通话', hangup: '挂断', mute: '静音', hint: '点击输入框后按下要使用的按键。' },
} satisfies Shape<typeof en>;
