import type { Shape } from '../../../i18n/types';
import type en from './en-US';

const t: Shape<typeof en> = {
  title: '媒体云',
  terminals: '终端（全部）',
  terminal: '终端',
  kind: '类型（全部）',
  kinds: {
    image: '图片',
    video: '视频',
    audio: '音频',
  },
  search: '查询',
  empty: '该时间段内没有照片、视频或录音',
  download: '下载',
  close: '关闭',
  taken: '拍摄时间',
  size: '大小',
  position: '位置',
  error: '无法加载媒体列表（代码 {{code}}）。',
};
export default t;
