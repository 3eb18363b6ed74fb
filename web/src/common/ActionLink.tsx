import { Button, type ButtonProps } from 'antd';

/**
 * An action that reads as a link (a table row's 编辑 or 删除, a card's corner): a real button, so the keyboard reaches
 * it (Tab, then Enter or Space) and a screen reader names it as one, which an anchor without `href` is not.
 */
export function ActionLink({ style, ...props }: Omit<ButtonProps, 'type'>) {
  return <Button type="link" size="small" {...props} style={{ paddingInline: 0, height: 'auto', ...style }} />;
}
