/** Times are stored in UTC and shown in China time. */
const DAY = new Intl.DateTimeFormat('zh-CN', { timeZone: 'Asia/Shanghai', year: 'numeric', month: '2-digit', day: '2-digit' });
const MINUTE = new Intl.DateTimeFormat('zh-CN', {
  timeZone: 'Asia/Shanghai',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hour12: false,
});

export const formatDay = (iso: string) => DAY.format(new Date(iso));
export const formatMinute = (iso: string) => MINUTE.format(new Date(iso));
