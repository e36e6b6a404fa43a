import type { Shape } from '../../i18n/types';
import type en from './en-US';

export default {
  errors: { tokenTimeout: '会话已过期（ds token timeout），请重新登录。', replaced: '该账号已在其他设备登录。' },
  ok: '确定',
  cancel: '取消',
  range: {
    start: '开始时间',
    end: '结束时间',
    required: '请选择开始和结束时间',
    order: '开始时间晚于结束时间',
    tooLong: '时间段最长 31 天',
    crossMonth: '不支持跨月查询',
  },
} satisfies Shape<typeof en>;
