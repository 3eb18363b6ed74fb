import { DatePicker } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState, type ComponentProps } from 'react';
import { toPicker } from '../../common/beijing.ts';
import { sysTime } from '../../common/http.ts';
import { ActionLink } from '#src/common/ActionLink.tsx';

const SHOW_TIME = { format: 'HH:mm' };
const FORMAT = 'YYYY-MM-DD HH:mm';

/** Said inside every time input: values are Beijing time whatever the browser's zone (common/beijing.ts converts). */
const ZONE = <span className="admin-hint">北京时间</span>;

/**
 * A date and time to the minute, as every time of a competition is entered. Its 此刻 is the present moment in Beijing
 * time by the server's clock (antd's own would put the browser's wall clock, hours off in another zone).
 */
export function DateTimePicker(props: ComponentProps<typeof DatePicker>) {
  const [open, setOpen] = useState(false);
  const now = () => {
    const value: Dayjs = toPicker(sysTime().toISOString()).second(0).millisecond(0);
    (props.onChange as ((v: Dayjs, text: string) => void) | undefined)?.(value, value.format(FORMAT));
    setOpen(false);
  };
  return (
    <DatePicker
      showTime={SHOW_TIME}
      format={FORMAT}
      style={{ width: '100%' }}
      suffixIcon={ZONE}
      showNow={false}
      open={open}
      onOpenChange={setOpen}
      renderExtraFooter={() => (
        <ActionLink onClick={now} data-testid="picker-now">
          此刻（北京时间）
        </ActionLink>
      )}
      {...props}
    />
  );
}

/** A from–to window to the minute; either end may stay open. */
export function DateTimeRangePicker(props: ComponentProps<typeof DatePicker.RangePicker>) {
  return <DatePicker.RangePicker showTime={SHOW_TIME} format={FORMAT} allowEmpty={[true, true]} placeholder={['不限', '不限']} suffixIcon={ZONE} {...props} />;
}
