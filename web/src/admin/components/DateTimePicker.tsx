import { DatePicker } from 'antd';
import type { ComponentProps } from 'react';

const SHOW_TIME = { format: 'HH:mm' };
const FORMAT = 'YYYY-MM-DD HH:mm';

/** A date and time to the minute, as every time of a competition is entered. */
export function DateTimePicker(props: ComponentProps<typeof DatePicker>) {
  return <DatePicker showTime={SHOW_TIME} format={FORMAT} style={{ width: '100%' }} {...props} />;
}

/** A from–to window to the minute; either end may stay open. */
export function DateTimeRangePicker(props: ComponentProps<typeof DatePicker.RangePicker>) {
  return <DatePicker.RangePicker showTime={SHOW_TIME} format={FORMAT} allowEmpty={[true, true]} placeholder={['不限', '不限']} {...props} />;
}
