import { UNREAD_BADGE_MAX } from '@contest/shared';
import { Badge, type BadgeProps } from 'antd';

/** antd's Badge capped at 99+ (spec §9); the header loads it only once there is something to count. */
export default function CountBadge(props: BadgeProps) {
  return <Badge overflowCount={UNREAD_BADGE_MAX} size="small" {...props} />;
}
