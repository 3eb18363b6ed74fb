import {
  REAL_NAME_DOC_TYPES,
  REAL_NAME_STATES,
  autoChecked,
  docNumberError,
  type RealNameBody,
  type RealNameDocType,
  type RealNameView,
} from '@contest/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Descriptions, Form, Input, Result, Select, Spin, Tag, Typography } from 'antd';
import { useState } from 'react';
import { realNameApi, realNameKeys } from '#src/api/real-names.ts';
import { DocumentField } from '#src/common/DocumentUpload.tsx';
import { useRefreshUser } from '#src/common/auth.ts';
import { ruleFrom, showFieldErrors } from '#src/common/forms.ts';
import { formatMinute } from '#src/common/time.ts';

const STATE_COLORS: Record<RealNameView['state'], string> = { none: 'default', pending: 'processing', verified: 'success', rejected: 'error' };

/** What the person sees of where they stand: verified, waiting for review, or why the last attempt failed. */
function Standing({ view }: { view: RealNameView }) {
  if (view.state === 'verified')
    return (
      <Result
        status="success"
        title="已完成实名认证"
        subTitle="证书上将打印认证的姓名。如需更改，请联系平台客服。"
        extra={
          <Descriptions column={1} size="small" bordered style={{ maxWidth: 420, margin: '0 auto', textAlign: 'left' }}>
            <Descriptions.Item label="姓名">{view.name}</Descriptions.Item>
            <Descriptions.Item label="证件类型">{view.docType && REAL_NAME_DOC_TYPES[view.docType]}</Descriptions.Item>
            <Descriptions.Item label="证件号码">{view.numberMask}</Descriptions.Item>
            <Descriptions.Item label="认证时间">{view.decidedAt && formatMinute(view.decidedAt)}</Descriptions.Item>
          </Descriptions>
        }
      />
    );
  if (view.state === 'pending')
    return (
      <Result
        status="info"
        title="人工审核中"
        subTitle={`你于 ${view.submittedAt ? formatMinute(view.submittedAt) : ''} 提交的${view.docType ? REAL_NAME_DOC_TYPES[view.docType] : '证件'}（${view.numberMask}）正在由平台审核，通常需要1至3个工作日，结果会通过站内消息通知你。`}
      />
    );
  return null;
}

/**
 * 实名认证 (issue 35): a 居民身份证 is checked at once; a passport or a 港澳台 document is reviewed by the platform from a
 * photo. Competitions may require it to register, download data or submit; certificates print the verified name.
 */
export default function RealNamePage() {
  const { message } = App.useApp();
  const client = useQueryClient();
  const refreshUser = useRefreshUser();
  const [form] = Form.useForm<RealNameBody>();
  const [saving, setSaving] = useState(false);
  const docType = (Form.useWatch('docType', form) ?? 'idCard') as RealNameDocType;
  const { data: view, isLoading } = useQuery({ queryKey: realNameKeys.mine, queryFn: realNameApi.mine });
  if (isLoading || !view) return <Spin />;
  const reviewed = !autoChecked(docType) || !view.autoCheck;

  async function submit(values: RealNameBody) {
    setSaving(true);
    try {
      const next = await realNameApi.submit({ ...values, fileUri: reviewed ? values.fileUri : null });
      client.setQueryData(realNameKeys.mine, next);
      void message.success(next.state === 'verified' ? '实名认证已通过' : '已提交，平台将在1至3个工作日内审核');
      await refreshUser();
    } catch (err) {
      showFieldErrors(form, err);
      await client.invalidateQueries({ queryKey: realNameKeys.mine });
    } finally {
      setSaving(false);
    }
  }

  const standing = <Standing view={view} />;
  return (
    <Card
      title={
        <span>
          实名认证 <Tag color={STATE_COLORS[view.state]}>{REAL_NAME_STATES[view.state]}</Tag>
        </span>
      }
    >
      {view.state === 'verified' || view.state === 'pending' ? (
        standing
      ) : (
        <>
          <Typography.Paragraph type="secondary">
            部分竞赛要求完成实名认证后才能报名、下载数据或提交作品，获奖证书将打印认证的姓名。一个证件只能认证一个账号。
            {view.autoCheck && `居民身份证将与公安登记信息即时核对（每天可核对${view.checksLeft}次）；`}
            其他证件（护照、港澳台证件）请上传证件照片，由平台人工审核。
          </Typography.Paragraph>
          {view.reason && (
            <Alert
              type="error"
              showIcon
              style={{ marginBottom: 16 }}
              message={view.state === 'rejected' ? '上次提交未通过审核' : '上次核验未通过'}
              description={view.reason}
            />
          )}
          <Form<RealNameBody>
            form={form}
            layout="vertical"
            initialValues={{ docType: 'idCard', name: view.name ?? '' }}
            onFinish={(v) => void submit(v)}
            style={{ maxWidth: 520 }}
          >
            <Form.Item name="docType" label="证件类型" rules={[{ required: true, message: '请选择证件类型' }]}>
              <Select options={Object.entries(REAL_NAME_DOC_TYPES).map(([value, label]) => ({ value, label }))} />
            </Form.Item>
            <Form.Item name="name" label="姓名" rules={[{ required: true, message: '请输入姓名' }]} extra="与证件上的姓名一致">
              <Input maxLength={30} autoComplete="name" />
            </Form.Item>
            <Form.Item
              name="number"
              label="证件号码"
              dependencies={['docType']}
              rules={[{ required: true, message: '请输入证件号码' }, ruleFrom((v) => docNumberError(docType, v))]}
            >
              <Input maxLength={40} autoComplete="off" />
            </Form.Item>
            {reviewed && (
              <Form.Item
                name="fileUri"
                label="证件照片"
                rules={[{ required: true, message: '请上传证件照片（人像信息页）' }]}
                extra="人像信息页的照片或扫描件，PDF、PNG或JPEG，10MB以内"
              >
                <DocumentField purpose="identity" label="证件照片" />
              </Form.Item>
            )}
            <Button type="primary" htmlType="submit" loading={saving} disabled={!reviewed && view.checksLeft === 0}>
              {reviewed ? '提交审核' : '立即认证'}
            </Button>
            {!reviewed && view.checksLeft === 0 && (
              <Typography.Text type="danger" style={{ marginInlineStart: 12 }}>
                今天的核验次数已用完，请明天再试
              </Typography.Text>
            )}
          </Form>
        </>
      )}
    </Card>
  );
}
