import { DatePicker } from 'antd';
import type { ComponentProps } from 'react';

const SHOW_TIME = { format: 'HH:mm' };
const FORMAT = 'YYYY-MM-DD HH:mm';

/** Said inside every time input: values are Beijing time whatever the browser's zone (common/beijing.ts converts). */
const ZONE = <span className="admin-hint">北京时间</span>;

/** A date and time to the minute, as every time of a competition is entered. */
export function DateTimePicker(props: ComponentProps<typeof DatePicker>) {
  return <DatePicker showTime={SHOW_TIME} format={FORMAT} style={{ width: '100%' }} suffixIcon={ZONE} {...props} />;
}

/** A from–to window to the minute; either end may stay open. */
export function DateTimeRangePicker(props: ComponentProps<typeof DatePicker.RangePicker>) {
  return <DatePicker.RangePicker showTime={SHOW_TIME} format={FORMAT} allowEmpty={[true, true]} placeholder={['不限', '不限']} suffixIcon={ZONE} {...props} />;
}
