import { fenToYuan, type PaymentMethodOption, type PayResult, type VoucherBody } from '@contest/shared';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Collapse, Descriptions, Empty, Image, Radio, Space, Typography, type UploadFile } from 'antd';
import { useState } from 'react';
import { paymentApi, paymentKeys } from '#src/api/payments.ts';
import { isMobile } from '#src/common/device.ts';
import { GuardedButton } from '#src/common/GuardedButton.tsx';
import { DocumentUpload, uploadedUris } from '#src/common/DocumentUpload.tsx';

/** What is paid: the amount, what the transfer's note names, and how the server is asked. */
export type Payable = {
  amount: number;
  /** What the payer writes in a transfer's note, e.g. 队伍编号 T0001 or 订单号 S…. */
  note: string;
  pay: (method: number | undefined) => Promise<PayResult>;
  voucher: (body: VoucherBody) => Promise<void>;
};

function OfflinePanel({ payable, method, onDone }: { payable: Payable; method: PaymentMethodOption; onDone: () => void }) {
  const { message } = App.useApp();
  const [files, setFiles] = useState<UploadFile[]>([]);
  const submit = async () => {
    const [voucher] = uploadedUris(files);
    if (!voucher) {
      void message.error('请上传转账凭证');
      return;
    }
    await payable.voucher({ payMethod: method.method as VoucherBody['payMethod'], voucher });
    void message.success('转账凭证已提交，请等待财务确认');
    onDone();
  };
  return (
    <>
      {method.accounts.map((a) => (
        <Descriptions
          key={a.accountNo}
          title={a.name}
          column={1}
          bordered
          size="small"
          styles={{ label: { whiteSpace: 'nowrap' } }}
          style={{ marginBottom: 16 }}
        >
          <Descriptions.Item label="户名">{a.accountName}</Descriptions.Item>
          <Descriptions.Item label="账号">
            <Typography.Text copyable>{a.accountNo}</Typography.Text>
          </Descriptions.Item>
          {a.bankName && <Descriptions.Item label="开户行">{a.bankName}</Descriptions.Item>}
          {a.instructions && <Descriptions.Item label="付款说明">{a.instructions}</Descriptions.Item>}
        </Descriptions>
      ))}
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 16 }}
        message={`请转账 ¥${fenToYuan(payable.amount)}，并在备注中填写${payable.note}；转账后上传回单或截图，财务确认后订单即为已支付。`}
      />
      <Space direction="vertical">
        <DocumentUpload purpose="voucher" files={files} onChange={setFiles} max={1} />
        <GuardedButton type="primary" onClick={submit}>
          提交转账凭证
        </GuardedButton>
      </Space>
    </>
  );
}

/**
 * The enabled ways to pay an unpaid order: a gateway's QR code (on a phone, a link into the payment app) or a transfer
 * with its voucher. `onCode` says while a code is shown, so that the page can watch for the gateway's notice.
 */
export function PayChoice({ payable, onDone, onCode }: { payable: Payable; onDone: () => void; onCode?: (shown: boolean) => void }) {
  const [method, setMethod] = useState<number>();
  const [code, setCode] = useState<PayResult | null>(null);
  const methods = useQuery({ queryKey: paymentKeys.methods, queryFn: () => paymentApi.methods() });
  const chosen = methods.data?.find((m) => m.method === method);
  // The app that pays: Alipay (method 2) or WeChat (method 1), the two online methods.
  const app = chosen?.method === 2 ? '支付宝' : '微信';
  // Spec §2.2's mobile: a phone's browser, where a QR code for the same phone cannot be scanned.
  const phone = isMobile();
  const show = (c: PayResult | null) => {
    setCode(c);
    onCode?.(Boolean(c));
  };
  if (methods.isLoading) return null;
  if (!methods.data?.length) return <Empty description="暂未开通支付方式，请联系主办方" />;
  return (
    <>
      <Typography.Title level={5}>选择支付方式</Typography.Title>
      <div style={{ marginBottom: 24 }}>
        <Radio.Group
          value={method}
          onChange={(e) => {
            setMethod(e.target.value);
            show(null);
          }}
          optionType="button"
          buttonStyle="solid"
          options={methods.data.map((m) => ({ value: m.method, label: m.name }))}
        />
      </div>
      {chosen?.online &&
        (code ? (
          phone ? (
            // A phone cannot scan its own screen: it opens the payment app with the payment's link instead.
            <Space direction="vertical" align="center" style={{ width: '100%' }} data-testid="pay-on-phone">
              <Button type="primary" size="large" href={code.codeUrl} target="_blank" rel="noopener noreferrer">
                打开{app}付款
              </Button>
              <Typography.Text style={{ textAlign: 'center' }}>在{app}中完成付款后回到本页，支付结果会自动更新</Typography.Text>
              <Collapse
                ghost
                items={[{ key: 'qr', label: '在另一台设备上扫码支付', children: <Image src={code.qrImage} width={200} preview={false} alt="支付二维码" /> }]}
              />
            </Space>
          ) : (
            <Space direction="vertical" align="center" style={{ width: '100%' }}>
              <Image src={code.qrImage} width={240} preview={false} alt="支付二维码" />
              <Typography.Text>请使用{app}扫码支付，支付完成后本页会自动更新</Typography.Text>
              <Typography.Link href={code.codeUrl} target="_blank" rel="noopener noreferrer">
                无法扫码？打开支付链接
              </Typography.Link>
            </Space>
          )
        ) : (
          <GuardedButton type="primary" onClick={async () => show(await payable.pay(method))}>
            {phone ? `使用${app}付款` : '生成支付二维码'}
          </GuardedButton>
        ))}
      {chosen && !chosen.online && <OfflinePanel payable={payable} method={chosen} onDone={onDone} />}
    </>
  );
}
