import {
  ARCHIVE_MAX_MB,
  EDITION_PARTS,
  EDITION_PART_KEYS,
  beijingMinute,
  nextEditionName,
  partsRefusal,
  shiftDate,
  shiftedDays,
  type CompetitionListItem,
  type EditionPart,
  type ImportReport,
} from '@contest/shared';
import { InboxOutlined } from '@ant-design/icons';
import { Alert, App, Button, Checkbox, Form, Input, InputNumber, Modal, Result, Select, Space, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { editionApi } from '#src/api/editions.ts';
import { competitionDetailKeys, competitionKeys } from '#src/api/competitions.ts';
import { HttpError } from '#src/common/http.ts';
import { FormModal } from '#src/common/FormModal.tsx';
import { useBrandOptions, useOrgOptions } from '#src/admin/components/options.ts';
import { useIsPlatform } from '#src/common/auth.ts';

interface CloneValues {
  name: string;
  shiftYears: number;
  shiftDays: number;
  parts: EditionPart[];
}

/**
 * 复制为新一届: the parts to copy (all ticked at first), the new name (the year and 第N届 moved on) and the offset every
 * date moves by (one year at first), with the dates it gives shown before anything is made. The new edition opens in the
 * editor, a draft, its checklist saying what to recheck.
 */
export function CloneEditionModal({ competition, onClose }: { competition: CompetitionListItem; onClose: () => void }) {
  const navigate = useNavigate();
  const client = useQueryClient();
  const { message } = App.useApp();
  const [shift, setShift] = useState({ years: 1, days: 0 });
  const reg = competition.regStartTime;
  const preview = (iso: string) => beijingMinute(shiftDate(iso, shift.years || 0, shift.days || 0));
  return (
    <FormModal<CloneValues>
      title={`复制为新一届：${competition.name}`}
      name="clone"
      okText="创建新一届"
      width={640}
      initialValues={{ name: nextEditionName(competition.name), shiftYears: 1, shiftDays: 0, parts: EDITION_PART_KEYS }}
      onSave={async (v) => {
        const { id } = await editionApi.clone(competition.id, { ...v, shiftYears: v.shiftYears ?? 0, shiftDays: v.shiftDays ?? 0 });
        await client.invalidateQueries({ queryKey: competitionKeys.all });
        await client.invalidateQueries({ queryKey: competitionDetailKeys.all });
        void message.success('新一届已创建（草稿），请按“上线准备”中的提示复核');
        navigate(`/competition/edit/${id}`);
      }}
      onClose={onClose}
    >
      <Form.Item
        name="name"
        label="新一届名称"
        rules={[
          { required: true, whitespace: true, message: '请输入新一届的名称' },
          { max: 100, message: '名称不能超过100个字' },
        ]}
      >
        <Input maxLength={100} />
      </Form.Item>
      <Form.Item
        label="所有日期顺延"
        required
        extra={`报名开始：${beijingMinute(reg)} → ${preview(reg)}（共 ${shiftedDays(reg, shift.years || 0, shift.days || 0)} 天）；阶段、菜单开放时间和定时通知一并顺延`}
      >
        <Space wrap>
          <Form.Item name="shiftYears" noStyle rules={[{ required: true, message: '请填写年数' }]}>
            <InputNumber
              min={0}
              max={10}
              precision={0}
              addonAfter="年"
              style={{ width: 120 }}
              onChange={(y) => setShift((s) => ({ ...s, years: Number(y ?? 0) }))}
            />
          </Form.Item>
          <Form.Item name="shiftDays" noStyle rules={[{ required: true, message: '请填写天数' }]}>
            <InputNumber
              min={-366}
              max={366}
              precision={0}
              addonAfter="天"
              style={{ width: 130 }}
              onChange={(d) => setShift((s) => ({ ...s, days: Number(d ?? 0) }))}
            />
          </Form.Item>
        </Space>
      </Form.Item>
      <Form.Item
        name="parts"
        label="复制的内容"
        rules={[
          {
            validator: async (_, parts: EditionPart[] = []) => {
              const refusal = partsRefusal(parts);
              if (refusal) throw new Error(refusal);
            },
          },
        ]}
      >
        <Checkbox.Group style={{ display: 'grid', gap: 6 }}>
          {EDITION_PART_KEYS.map((k) => (
            <Checkbox key={k} value={k}>
              {EDITION_PARTS[k]}
            </Checkbox>
          ))}
        </Checkbox.Group>
      </Form.Item>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
        答案文件、评分程序等文件与本届共用同一份存储，不会重复占用空间。参赛者、队伍、订单、提交、作品、成绩、证书和评审专家不会复制；新一届为草稿，需提交审核后上线。
      </Typography.Paragraph>
    </FormModal>
  );
}

/**
 * 导入竞赛包: a zip exported by this or another platform becomes a draft of the caller's organisation; the brand is
 * matched by name unless one is chosen. The report says what did not come with it.
 */
export function ImportArchiveModal({ onClose }: { onClose: () => void }) {
  const navigate = useNavigate();
  const client = useQueryClient();
  const brands = useBrandOptions();
  const platform = useIsPlatform();
  const orgs = useOrgOptions(platform);
  const [file, setFile] = useState<File | null>(null);
  const [brandId, setBrandId] = useState<number | undefined>();
  const [orgId, setOrgId] = useState<number | undefined>();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [report, setReport] = useState<ImportReport | null>(null);

  async function submit() {
    if (!file) return setError('请选择竞赛包文件（.zip）');
    if (platform && !orgId) return setError('请选择导入到哪个组织');
    setBusy(true);
    setError(null);
    try {
      const r = await editionApi.importArchive(file, { brandId, orgId });
      await client.invalidateQueries({ queryKey: competitionKeys.all });
      setReport(r);
    } catch (err) {
      setError(err instanceof HttpError ? err.message : '导入失败，请稍后重试');
    } finally {
      setBusy(false);
    }
  }

  if (report)
    return (
      <Modal
        open
        title="导入竞赛包"
        onCancel={onClose}
        footer={[
          <Button key="close" onClick={onClose}>
            关闭
          </Button>,
          <Button key="open" type="primary" onClick={() => navigate(`/competition/edit/${report.id}`)}>
            打开草稿
          </Button>,
        ]}
      >
        <Result status="success" title={`已导入“${report.name}”（草稿）`} subTitle={`共导入 ${report.files} 个文件`} style={{ padding: '12px 0' }} />
        <Alert
          type="info"
          showIcon
          message="未随竞赛包迁移的内容"
          description={
            <ul style={{ paddingLeft: 18, margin: 0 }}>
              {report.notCarried.map((t) => (
                <li key={t}>{t}</li>
              ))}
            </ul>
          }
        />
      </Modal>
    );
  return (
    <Modal open title="导入竞赛包" okText="导入" cancelText="取消" confirmLoading={busy} onOk={submit} onCancel={onClose} maskClosable={false}>
      <Typography.Paragraph type="secondary">
        竞赛包由「导出竞赛包」生成（本平台或其他平台），包含竞赛的页面、阶段、菜单与报名表、赛题与评分设置、答案文件、评审规则、证书模板和草稿通知。导入后为本组织的草稿竞赛。
      </Typography.Paragraph>
      <Upload.Dragger
        accept=".zip,application/zip"
        maxCount={1}
        beforeUpload={(f) => {
          if (f.size > ARCHIVE_MAX_MB * 1024 * 1024) {
            setError(`竞赛包不能超过${ARCHIVE_MAX_MB}MB`);
            return Upload.LIST_IGNORE;
          }
          setFile(f);
          setError(null);
          return false;
        }}
        onRemove={() => setFile(null)}
        fileList={file ? [{ uid: 'archive', name: file.name, status: 'done' }] : []}
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p>点击或拖入竞赛包（.zip，不超过{ARCHIVE_MAX_MB}MB）</p>
      </Upload.Dragger>
      <Form layout="vertical" style={{ marginTop: 12 }}>
        {platform && (
          <Form.Item label="主办组织" required>
            <Select
              placeholder="请选择组织"
              value={orgId}
              onChange={setOrgId}
              options={orgs.data ?? []}
              loading={orgs.isLoading}
              showSearch
              optionFilterProp="label"
            />
          </Form.Item>
        )}
        <Form.Item label="导入到品牌" extra="不选择时按竞赛包中的品牌名称匹配本平台的品牌">
          <Select
            allowClear
            placeholder="按名称匹配"
            value={brandId}
            onChange={setBrandId}
            options={brands.data ?? []}
            loading={brands.isLoading}
            showSearch
            optionFilterProp="label"
          />
        </Form.Item>
      </Form>
      {error && <Alert type="error" showIcon message={error} />}
    </Modal>
  );
}
