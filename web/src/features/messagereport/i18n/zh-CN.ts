import type { Shape } from '../../../i18n/types';
import type en from './en-US';

const t: Shape<typeof en> = {
  title: '消息数据',
  terminals: '终端（全部）',
  search: '查询',
  export: '导出 Excel',
  exported: '已导出 {{count}} 条消息。',
  error: '无法加载消息数据（代码 {{code}}）。',
  summary: '汇总',
  messages: '消息',
  dispatchCenter: '调度中心',
  read: '已读',
  unread: '未读',
  kinds: {
    text: '文本',
    image: '图片',
    file: '文件',
    audio: '音频',
    video: '视频',
  },
  states: {
    pending: '待送达',
    partial: '部分送达',
    delivered: '已送达',
  },
  col: {
    terminal: '终端',
    sent: '发送',
    received: '接收',
    delivered: '已送达',
    time: '时间',
    from: '发送方',
    to: '接收方',
    type: '类型',
    content: '内容',
    file: '文件',
    delivery: '送达',
  },
};
export default t;
