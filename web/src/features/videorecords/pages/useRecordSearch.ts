// One search over a list of recordings, as both tabs of /video-records run it: a time range checked by the
// spec §5 rules (at most a month), the filter applied on "search", pages of RECORD_PAGE_SIZE, a coded error
// shown once, and the list refreshed when the named live event says a recording started or ended.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { App } from 'antd';
import { ApiError } from '../../../shared/http/client';
import { live } from '../../../shared/socket/live';
import type { WallRange } from '../../../shared/time/RangePicker';
import { checkWallRange, defaultWallRange, MONTH_DAYS, rangeToMs } from '../../../shared/time/range';
import { RECORD_PAGE_SIZE } from '../api';

type Ms = ReturnType<typeof rangeToMs>;

export function useRecordSearch<F extends object, R>(
  key: string,
  event: string,
  empty: F,
  fetch: (q: F & Ms & { pageNo: number; pageSize: number }) => Promise<{ total: number; list: R[] }>,
) {
  const { t } = useTranslation('videorecords');
  const { message } = App.useApp();
  const [range, setRange] = useState<WallRange>(() => defaultWallRange());
  const [applied, setApplied] = useState<F & Ms>(() => ({ ...empty, ...rangeToMs(defaultWallRange()) }));
  const [page, setPage] = useState(1);
  const q = useQuery({
    queryKey: ['videorecords', key, applied, page],
    queryFn: () => fetch({ ...applied, pageNo: page, pageSize: RECORD_PAGE_SIZE }),
  });
  const { refetch } = q;
  useEffect(() => {
    if (q.error) {
      const code = q.error instanceof ApiError ? q.error.code : 'other';
      message.error(t(`codes.${code}`, { defaultValue: t('codes.other', { code }) }));
    }
  }, [q.error]); // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => live().on(event, () => void refetch()), [event, refetch]);

  const rangeError = checkWallRange(range, MONTH_DAYS);
  /** Applies the filter and the range (when the range is valid) from the first page. */
  const search = (filter: F) => {
    if (rangeError || !range) return;
    setApplied({ ...filter, ...rangeToMs(range) });
    setPage(1);
  };
  const pagination = { current: page, pageSize: RECORD_PAGE_SIZE, total: q.data?.total ?? 0, onChange: setPage, showSizeChanger: false };
  return { q, range, setRange, rangeError, search, pagination };
}
