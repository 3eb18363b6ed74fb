import type { CertificateCheck } from '@contest/shared';
import { SafetyCertificateOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Card, Descriptions, Result, Spin, Tag } from 'antd';
import { useParams, useSearchParams } from 'react-router';
import { HttpError, http } from '../../../common/http.ts';
import { formatDay } from '../../../common/time.ts';

const NOT_FOUND = '未找到该证书，或验证码不正确';

/** `/certificate/verify/:certNo?code=`: where a certificate's QR code leads; anyone may check a certificate here. */
export default function VerifyPage() {
  const { certNo = '' } = useParams();
  const [search] = useSearchParams();
  const code = search.get('code') ?? '';
  const { data, error, isLoading } = useQuery({
    queryKey: ['certificateCheck', certNo, code],
    enabled: Boolean(certNo),
    retry: false,
    queryFn: () => http.get<CertificateCheck>(`/api/review/certificate/public/verify/${encodeURIComponent(certNo)}`, { code }, { silent: true }),
  });
  if (isLoading) return <Spin style={{ display: 'block', margin: '120px auto' }} />;
  if (!data) {
    // Too many checks, or the server unreachable, are not a missing certificate.
    const other = error instanceof HttpError && ![400, 403, 404].includes(error.status) ? error.message : null;
    return (
      <Card style={{ maxWidth: 640, margin: '40px auto' }}>
        <Result status="warning" title={other ? '暂时无法验证证书' : NOT_FOUND} subTitle={other ?? `证书编号：${certNo}。请核对证书上的编号，或重新扫描证书上的二维码。`} />
      </Card>
    );
  }
  return (
    <Card
      style={{ maxWidth: 640, margin: '40px auto' }}
      title={
        <span>
          <SafetyCertificateOutlined style={{ color: '#52c41a', marginRight: 8 }} />
          证书验证
        </span>
      }
      extra={<Tag color="success">证书有效</Tag>}
      data-testid="certificate-check"
    >
      <Descriptions column={1} bordered size="middle" styles={{ label: { width: 120 } }}>
        <Descriptions.Item label="证书编号">{data.certNo}</Descriptions.Item>
        <Descriptions.Item label="持有人">{data.holderName}</Descriptions.Item>
        <Descriptions.Item label="竞赛">{data.competitionName}</Descriptions.Item>
        <Descriptions.Item label="赛题">{data.questionTitle}</Descriptions.Item>
        <Descriptions.Item label="奖项">{data.awardName}</Descriptions.Item>
        <Descriptions.Item label="颁发日期">{formatDay(data.createdAt)}</Descriptions.Item>
      </Descriptions>
    </Card>
  );
}
