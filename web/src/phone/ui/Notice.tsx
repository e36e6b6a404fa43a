import { t } from '../i18n';
import { noticeShown, useNotice } from './notice';
import { useTick } from './useTick';

export function NoticeToast() {
  const notice = useNotice((s) => s.notice);
  const now = useTick(!!notice, 1000);
  if (!noticeShown(notice, now)) return null;
  return (
    <div className="p-toast" role="status" data-testid="phone-notice" data-key={notice.key}>
      {t(notice.key, notice.vars)}
    </div>
  );
}
