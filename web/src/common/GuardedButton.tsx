import { Button, type ButtonProps } from 'antd';
import type { MouseEvent } from 'react';
import { CLICK_GUARD_MS, useClickGuard } from './useClickGuard.ts';

/** A button with the re-click guard of spec §5: disabled for 3000 ms (or `guardMs`) after each click. */
export function GuardedButton({ guardMs = CLICK_GUARD_MS, onClick, disabled, ...props }: ButtonProps & { guardMs?: number }) {
  const guard = useClickGuard((e: MouseEvent<HTMLElement>) => onClick?.(e as never), guardMs);
  return <Button {...props} disabled={disabled || guard.disabled} onClick={guard.onClick} />;
}
