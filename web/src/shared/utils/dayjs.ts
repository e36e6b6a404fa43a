// dayjs with the plugins the console uses; import dayjs from here so every module gets them.
import dayjs from 'dayjs';
import relativeTime from 'dayjs/plugin/relativeTime';

dayjs.extend(relativeTime);

export default dayjs;
export type { Dayjs } from 'dayjs';
