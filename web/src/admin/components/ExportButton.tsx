import { DownloadOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useState } from 'react';
import { downloadBlob, saveBlob } from '../../common/http.ts';

/**
 * Exports a list as xlsx with its current filters (not its page), showing progress while the file is built; with
 * `ids` among the filters, the selected rows.
 */
export function ExportButton({
  url,
  query,
  label = '导出Excel',
  size,
}: {
  url: string;
  query: Record<string, string | number | undefined>;
  label?: string;
  size?: 'small';
}) {
  const [exporting, setExporting] = useState(false);
  async function run() {
    setExporting(true);
    try {
      const { page: _p, limit: _l, ...filters } = query;
      const file = await downloadBlob(url, { params: { ...filters, export: 'xlsx' } });
      if (file) saveBlob(file.blob, file.fileName);
    } finally {
      setExporting(false);
    }
  }
  return (
    <Button icon={<DownloadOutlined />} loading={exporting} onClick={run} size={size}>
      {label}
    </Button>
  );
}
