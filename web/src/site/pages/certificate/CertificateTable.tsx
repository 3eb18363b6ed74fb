import type { Certificate } from '@contest/shared';
import { EyeOutlined } from '@ant-design/icons';
import { Button, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { certificateUrls } from '#src/api/certificates.ts';
import { DownloadButton } from '#src/common/DownloadButton.tsx';
import { viewFile } from '#src/common/download.ts';
import { formatDay } from '#src/common/time.ts';

export const HOLDER_KIND_TEXT: Record<Certificate['holderKind'], string> = { member: '队员', teacher: '指导教师' };

/** The certificate's PDF (served as an attachment): shown in a new tab from a blob to view, or saved by the download helper. */
export const certificatePdfUrl = certificateUrls.download;

export function CertificateActions({ certificate }: { certificate: Certificate }) {
  const [opening, setOpening] = useState(false);
  async function view() {
    setOpening(true);
    try {
      await viewFile(certificatePdfUrl(certificate.id));
    } catch {
      // already told
    } finally {
      setOpening(false);
    }
  }
  return (
    <Space size={4}>
      <Button type="link" size="small" icon={<EyeOutlined />} loading={opening} onClick={() => void view()}>
        查看
      </Button>
      <DownloadButton url={certificatePdfUrl(certificate.id)} downloadKey={`certificate-${certificate.id}`} width={130}>
        下载
      </DownloadButton>
    </Space>
  );
}

/** Certificates as a table; the user centre's list, across competitions, adds the competition. */
export function CertificateTable({ data, loading, showCompetition = false }: { data: Certificate[] | undefined; loading: boolean; showCompetition?: boolean }) {
  return (
    <Table<Certificate>
      rowKey="id"
      size="middle"
      loading={loading}
      dataSource={data}
      pagination={(data?.length ?? 0) > 20 ? { pageSize: 20, showTotal: (t) => `共 ${t} 张` } : false}
      scroll={{ x: showCompetition ? 1100 : 900 }}
      locale={{ emptyText: '暂无证书' }}
      // The holder, the competition (in the user centre), the award and the number come first: they stay in sight
      // when the rest scrolls under the fixed actions.
      columns={[
        {
          title: '持有人',
          width: 150,
          render: (_, c) => (
            <Space direction="vertical" size={0}>
              <span>{c.holderName}</span>
              {c.school && <Typography.Text type="secondary">{c.school}</Typography.Text>}
            </Space>
          ),
        },
        ...(showCompetition ? [{ title: '竞赛', width: 180, dataIndex: 'competitionName' }] : []),
        { title: '奖项', width: 100, render: (_, c) => <Tag color="gold">{c.awardName}</Tag> },
        { title: '证书编号', width: 160, render: (_, c) => <Typography.Text copyable>{c.certNo}</Typography.Text> },
        { title: '赛题', width: 160, dataIndex: 'questionTitle' },
        { title: '队伍', width: 140, dataIndex: 'teamName' },
        { title: '类型', width: 100, render: (_, c) => <Tag color={c.holderKind === 'teacher' ? 'blue' : 'default'}>{HOLDER_KIND_TEXT[c.holderKind]}</Tag> },
        { title: '颁发日期', width: 110, render: (_, c) => formatDay(c.createdAt) },
        { title: '操作', width: 200, fixed: 'right', render: (_, c) => <CertificateActions certificate={c} /> },
      ]}
    />
  );
}
