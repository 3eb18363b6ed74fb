import { normalizeCertInput } from '@contest/shared';
import { SafetyCertificateOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Descriptions, Form, Input, Result, Spin, Tag } from 'antd';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { certificateApi, certificateKeys } from '#src/api/certificates.ts';
import { HttpError } from '#src/common/http.ts';
import { formatDay } from '#src/common/time.ts';

const NOT_FOUND = '未找到该证书，或验证码不正确';

interface Typed {
  certNo: string;
  code: string;
}

/**
 * The form for checking a certificate by hand: the number and the verification code printed on it. Case, spaces and
 * dashes do not matter. Checking opens `/certificate/verify/{number}?code=`, the address the QR code leads to.
 */
function VerifyForm({ certNo, code }: Typed) {
  const navigate = useNavigate();
  const [form] = Form.useForm<Typed>();
  const submit = (v: Typed) =>
    navigate(`/certificate/verify/${encodeURIComponent(normalizeCertInput(v.certNo))}?code=${encodeURIComponent(normalizeCertInput(v.code))}`);
  return (
    <Card style={{ maxWidth: 640, margin: '40px auto 0' }} title="查验证书">
      <Form<Typed> form={form} layout="vertical" name="certificateVerify" initialValues={{ certNo, code }} onFinish={submit} requiredMark={false}>
        <Form.Item
          name="certNo"
          label="证书编号"
          rules={[
            { required: true, whitespace: true, message: '请输入证书编号' },
            { max: 32, message: '证书编号过长' },
          ]}
        >
          <Input placeholder="证书上印的编号，如 202600000001" autoComplete="off" allowClear />
        </Form.Item>
        <Form.Item
          name="code"
          label="验证码"
          extra="证书编号旁印的8位验证码，如 7KQ2-M9XD，不区分大小写"
          rules={[
            { required: true, whitespace: true, message: '请输入验证码' },
            { max: 64, message: '验证码过长' },
          ]}
        >
          <Input placeholder="XXXX-XXXX" autoComplete="off" allowClear />
        </Form.Item>
        <Button type="primary" htmlType="submit" block>
          验证
        </Button>
      </Form>
    </Card>
  );
}

/** The result of a check: the certificate's facts (holder masked), or why there is none. */
function Check({ certNo, code }: Typed) {
  const { data, error, isLoading } = useQuery({
    queryKey: certificateKeys.check(certNo, code),
    retry: false,
    queryFn: () => certificateApi.verify(certNo, code),
  });
  if (isLoading) return <Spin style={{ display: 'block', margin: '40px auto' }} />;
  if (!data) {
    // Too many checks, or the server unreachable, are not a missing certificate.
    const other = error instanceof HttpError && ![400, 403, 404].includes(error.status) ? error.message : null;
    return (
      <Card style={{ maxWidth: 640, margin: '16px auto' }}>
        <Result
          status="warning"
          title={other ? '暂时无法验证证书' : NOT_FOUND}
          subTitle={other ?? `证书编号：${certNo}。请核对证书上的编号和验证码，或重新扫描证书上的二维码。`}
        />
      </Card>
    );
  }
  return (
    <Card
      style={{ maxWidth: 640, margin: '16px auto' }}
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

/**
 * `/certificate/verify` and `/certificate/verify/:certNo?code=`: anyone may check a certificate, by scanning its QR
 * code (which opens the address with both) or by typing the number and the code printed on it.
 */
export default function VerifyPage() {
  const { certNo = '' } = useParams();
  const [search] = useSearchParams();
  const code = search.get('code') ?? '';
  return (
    <div style={{ padding: '0 16px 40px' }}>
      {/* A new address (another check) starts the form afresh with what it names. */}
      <VerifyForm key={`${certNo}?${code}`} certNo={certNo} code={code.length === 16 ? '' : code} />
      {certNo && code ? (
        <Check certNo={certNo} code={code} />
      ) : certNo ? (
        <Alert style={{ maxWidth: 640, margin: '16px auto' }} type="info" showIcon message="请输入证书编号旁印的验证码后点击“验证”" />
      ) : null}
    </div>
  );
}
