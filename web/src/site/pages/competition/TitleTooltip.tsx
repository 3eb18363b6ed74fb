import { Tooltip } from 'antd';
import type { ReactElement } from 'react';

/** Open from the start: it is mounted while the pointer is already over its title. */
export default function TitleTooltip({ title, children }: { title: string; children: ReactElement }) {
  return (
    <Tooltip title={title} defaultOpen>
      {children}
    </Tooltip>
  );
}
