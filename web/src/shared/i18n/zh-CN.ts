import type { Shape } from '../../i18n/types';
import type en from './en-US';

export default {
  errors: { tokenTimeout: '会话已过期（ds token timeout），请重新登录。', replaced: '该账号已在其他设备登录。' },
  ok: '确定',
  cancel: '取消',
} satisfies Shape<typeof en>;
