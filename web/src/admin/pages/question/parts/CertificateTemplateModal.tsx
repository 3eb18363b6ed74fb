import { CERT_FIELDS, CERT_FIELD_NAMES, CERT_SAMPLE, type CertField, type CertFieldPlacement, type CertificateTemplate, type TemplateBody } from '@contest/shared';
import { DeleteOutlined, LoadingOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Col, ColorPicker, Empty, Form, Input, InputNumber, Modal, Row, Select, Skeleton, Space, Tooltip, Upload } from 'antd';
import type { Color } from 'antd/es/color-picker';
import { useLayoutEffect, useRef, useState, type PointerEvent, type RefObject } from 'react';
import { fileUrl } from '../../../../common/files.ts';
import { FormModal } from '../../../../common/FormModal.tsx';
import { http } from '../../../../common/http.ts';
import { uploadError, uploadHeaders } from '../../../../common/upload.ts';

/** What the form holds: the body, plus the background's size in pixels, which the preview and positions need. */
interface Values {
  name: string;
  backgroundUri: string;
  width: number;
  height: number;
  fields: CertFieldPlacement[];
}

const PREVIEW_MAX_HEIGHT = 460;
/** The size a template is laid out for before it has a background. */
const FALLBACK = { width: 1600, height: 1131 };

/** Query keys: every template list, and each template by id. */
export const TEMPLATES_KEY = ['certTemplates'];
const TEMPLATE_KEY = ['certTemplate'];
export const templateKey = (id: number) => [...TEMPLATE_KEY, id];

/** A sensible first place for a field: texts down the left side, the QR code in the bottom-right corner. */
function defaultPlacement(field: CertField, order: number, width: number, height: number): CertFieldPlacement {
  if (field === 'qrcode') {
    const side = Math.round(Math.min(width, height) * 0.15);
    return { field, x: Math.max(0, width - side - Math.round(width * 0.06)), y: Math.max(0, height - side - Math.round(height * 0.08)), size: Math.max(8, side), color: '#000000' };
  }
  const size = Math.min(600, Math.max(8, Math.round(height / 24)));
  return { field, x: Math.round(width * 0.12), y: Math.min(height - size, Math.round(height * (0.22 + order * 0.08))), size, color: '#000000' };
}

function useElementWidth(ref: RefObject<HTMLElement | null>) {
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    setWidth(el.clientWidth);
    const observer = new ResizeObserver(([entry]) => setWidth(entry!.contentRect.width));
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

/**
 * The background upload (PNG or JPEG). Its size is kept with it; replacing a background of another size moves and
 * resizes the placed fields in proportion, so the layout survives.
 */
function BackgroundUpload({ value, onChange }: { value?: string; onChange?: (uri: string) => void }) {
  const { message } = App.useApp();
  const form = Form.useFormInstance<Values>();
  const [uploading, setUploading] = useState(false);
  function accept(bg: { uri: string; width: number; height: number }) {
    const { width, height, fields = [] } = form.getFieldsValue(['width', 'height', 'fields']) as Partial<Values>;
    if (width && height && (width !== bg.width || height !== bg.height)) {
      const rx = bg.width / width;
      const ry = bg.height / height;
      form.setFieldValue(
        'fields',
        fields.map((f) => ({ ...f, x: Math.round(f.x * rx), y: Math.round(f.y * ry), size: Math.min(600, Math.max(8, Math.round(f.size * Math.min(rx, ry)))) })),
      );
    }
    form.setFieldsValue({ width: bg.width, height: bg.height });
    onChange?.(bg.uri);
  }
  return (
    <Space>
      <Upload
        name="file"
        accept="image/png,image/jpeg"
        action="/api/review/certificate/cert/imgUrl"
        headers={uploadHeaders()}
        showUploadList={false}
        onChange={({ file }) => {
          setUploading(file.status === 'uploading');
          if (file.status === 'done') accept(file.response.data);
          if (file.status === 'error') void message.error(uploadError(file.response), 5);
        }}
      >
        <Button icon={uploading ? <LoadingOutlined /> : <UploadOutlined />} disabled={uploading || undefined}>
          {value ? '更换背景图' : '上传背景图'}
        </Button>
      </Upload>
      <span className="admin-hint">PNG或JPEG，建议使用证书的实际印刷尺寸（如A4横向 3508×2480）</span>
    </Space>
  );
}

/**
 * The certificate as it will look: the background scaled to the dialog, each field's sample text (or the QR code's
 * square) at its position, scaled alike. Fields can be dragged into place; the coordinates follow.
 */
function Preview({ editable }: { editable: boolean }) {
  const form = Form.useFormInstance<Values>();
  const uri = Form.useWatch('backgroundUri', form);
  const width = Form.useWatch('width', form);
  const height = Form.useWatch('height', form);
  const fields: (CertFieldPlacement | undefined)[] = Form.useWatch('fields', form) ?? [];
  const box = useRef<HTMLDivElement>(null);
  const boxWidth = useElementWidth(box);
  const drag = useRef<{ index: number; pointerX: number; pointerY: number; x: number; y: number } | null>(null);

  const ready = Boolean(uri && width && height && boxWidth);
  const scale = ready ? Math.min(boxWidth / width, PREVIEW_MAX_HEIGHT / height) : 0;

  function start(e: PointerEvent<HTMLDivElement>, index: number, f: CertFieldPlacement) {
    if (!editable) return;
    e.preventDefault();
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { index, pointerX: e.clientX, pointerY: e.clientY, x: f.x, y: f.y };
  }
  function move(e: PointerEvent<HTMLDivElement>) {
    const d = drag.current;
    if (!d) return;
    const clamp = (v: number, max: number) => Math.min(max, Math.max(0, Math.round(v)));
    form.setFieldValue(['fields', d.index, 'x'], clamp(d.x + (e.clientX - d.pointerX) / scale, width));
    form.setFieldValue(['fields', d.index, 'y'], clamp(d.y + (e.clientY - d.pointerY) / scale, height));
  }
  const end = () => (drag.current = null);

  return (
    <div ref={box} style={{ width: '100%', marginBottom: 16 }}>
      {!ready ? (
        <div className="admin-image-box" style={{ height: 240 }}>
          上传背景图后在此预览证书
        </div>
      ) : (
        <div
          role="img"
          aria-label="证书预览"
          style={{
            position: 'relative',
            width: width * scale,
            height: height * scale,
            margin: '0 auto',
            overflow: 'hidden',
            border: '1px solid #f0f0f0',
            background: `#fff url("${fileUrl(uri)}") center / 100% 100% no-repeat`,
          }}
        >
          {fields.map((f, index) =>
            f?.field && typeof f.x === 'number' && typeof f.y === 'number' && typeof f.size === 'number' ? (
              <div
                key={f.field}
                title={`${CERT_FIELD_NAMES[f.field]}（${f.x}, ${f.y}）${editable ? '，可拖动调整位置' : ''}`}
                onPointerDown={(e) => start(e, index, f)}
                onPointerMove={move}
                onPointerUp={end}
                onPointerCancel={end}
                style={{
                  position: 'absolute',
                  left: f.x * scale,
                  top: f.y * scale,
                  cursor: editable ? 'move' : 'default',
                  userSelect: 'none',
                  touchAction: 'none',
                  ...(f.field === 'qrcode'
                    ? { width: f.size * scale, height: f.size * scale, border: '1px dashed #999', background: 'rgba(255,255,255,0.7)', display: 'flex', alignItems: 'center', justifyContent: 'center', fontSize: 12, color: '#999' }
                    : { fontSize: f.size * scale, lineHeight: 1, whiteSpace: 'nowrap', color: f.color || '#000000' }),
                }}
              >
                {f.field === 'qrcode' ? '二维码' : CERT_SAMPLE[f.field]}
              </div>
            ) : null,
          )}
        </div>
      )}
    </div>
  );
}

/** The placed fields: which, where (background pixels), how big, which colour. Each field at most once; 姓名 required. */
function Placements({ editable }: { editable: boolean }) {
  const form = Form.useFormInstance<Values>();
  const placed: (CertFieldPlacement | undefined)[] = Form.useWatch('fields', form) ?? [];
  const used = new Set(placed.map((f) => f?.field));
  const unused = CERT_FIELDS.filter((f) => !used.has(f));
  const place = (field: CertField, order: number) => {
    const { width = FALLBACK.width, height = FALLBACK.height } = form.getFieldsValue(['width', 'height']) as Partial<Values>;
    return defaultPlacement(field, order, width || FALLBACK.width, height || FALLBACK.height);
  };
  return (
    <Form.List
      name="fields"
      rules={[
        {
          validator: async (_, list: CertFieldPlacement[] | undefined) => {
            if (!list?.some((f) => f?.field === 'name')) throw new Error('证书须包含姓名');
          },
        },
      ]}
    >
      {(rows, { add, remove }, { errors }) => (
        <>
          {rows.map((row) => {
            const current = placed[row.name]?.field;
            return (
              <Row key={row.key} gutter={8} wrap={false} align="top">
                <Col flex="150px">
                  <Form.Item name={[row.name, 'field']} rules={[{ required: true, message: '请选择字段' }]}>
                    <Select aria-label="字段" options={CERT_FIELDS.map((f) => ({ value: f, label: CERT_FIELD_NAMES[f], disabled: f !== current && used.has(f) }))} />
                  </Form.Item>
                </Col>
                <Col flex="130px">
                  <Form.Item name={[row.name, 'x']} rules={[{ required: true, message: '请输入横坐标' }]}>
                    <InputNumber prefix="X" min={0} max={10000} precision={0} style={{ width: '100%' }} />
                  </Form.Item>
                </Col>
                <Col flex="130px">
                  <Form.Item name={[row.name, 'y']} rules={[{ required: true, message: '请输入纵坐标' }]}>
                    <InputNumber prefix="Y" min={0} max={10000} precision={0} style={{ width: '100%' }} />
                  </Form.Item>
                </Col>
                <Col flex="150px">
                  <Form.Item name={[row.name, 'size']} rules={[{ required: true, message: '请输入大小' }]}>
                    <InputNumber prefix={current === 'qrcode' ? '边长' : '字号'} min={8} max={600} precision={0} style={{ width: '100%' }} />
                  </Form.Item>
                </Col>
                <Col flex="130px">
                  {current !== 'qrcode' && (
                    <Form.Item name={[row.name, 'color']} getValueFromEvent={(c: Color) => c.toHexString()}>
                      <ColorPicker format="hex" disabledAlpha showText />
                    </Form.Item>
                  )}
                </Col>
                {editable && (
                  <Col flex="32px">
                    <Tooltip title="删除">
                      <Button type="text" danger icon={<DeleteOutlined />} aria-label="删除字段" onClick={() => remove(row.name)} />
                    </Tooltip>
                  </Col>
                )}
              </Row>
            );
          })}
          <Form.ErrorList errors={errors} />
          {editable && (
            <Space>
              <Button type="dashed" icon={<PlusOutlined />} disabled={!unused.length} onClick={() => add(place(unused[0]!, rows.length))}>
                添加字段
              </Button>
              <Button type="dashed" disabled={!unused.length} onClick={() => unused.forEach((f, i) => add(place(f, rows.length + i)))}>
                添加全部字段
              </Button>
            </Space>
          )}
        </>
      )}
    </Form.List>
  );
}

/** Creates or edits a certificate template of a competition; read-only for those who may not edit. */
export function CertificateTemplateModal({ competitionId, templateId, readOnly, onClose }: { competitionId: number; templateId: number | null; readOnly: boolean; onClose: () => void }) {
  const { message } = App.useApp();
  const client = useQueryClient();
  const template = useQuery({ queryKey: templateKey(templateId ?? 0), enabled: Boolean(templateId), queryFn: () => http.get<CertificateTemplate>(`/api/review/certificate/${templateId}`) });
  const title = templateId ? (readOnly ? '查看证书模板' : '编辑证书模板') : '新建证书模板';

  if (templateId && !template.data) {
    return (
      <Modal open title={title} width={980} footer={null} onCancel={onClose}>
        {template.isError ? <Empty description="证书模板加载失败" /> : <Skeleton active paragraph={{ rows: 10 }} />}
      </Modal>
    );
  }

  const t = template.data;
  const initial: Partial<Values> = t ? { name: t.name, backgroundUri: t.backgroundUri, width: t.width, height: t.height, fields: t.fields } : { fields: [] };
  async function save(v: Values) {
    const body: TemplateBody = { name: v.name, backgroundUri: v.backgroundUri, fields: v.fields.map(({ field, x, y, size, color }) => ({ field, x, y, size, color: color || '#000000' })) };
    if (templateId) await http.put(`/api/review/certificate/${templateId}`, body);
    else await http.post(`/api/review/certificate/${competitionId}`, body);
    void message.success('证书模板已保存');
    await Promise.all([client.invalidateQueries({ queryKey: TEMPLATES_KEY }), client.invalidateQueries({ queryKey: TEMPLATE_KEY })]);
  }

  return (
    <FormModal<Values> title={title} name="certTemplate" width={980} initialValues={initial} onSave={save} onClose={onClose} readOnly={readOnly}>
      <Row gutter={16}>
        <Col span={10}>
          <Form.Item name="name" label="模板名称" rules={[{ required: true, whitespace: true, message: '请输入模板名称' }]}>
            <Input maxLength={50} placeholder="如：获奖证书（队员）" />
          </Form.Item>
        </Col>
        <Col span={14}>
          <Form.Item name="backgroundUri" label="背景图" rules={[{ required: true, message: '请上传证书背景图' }]}>
            <BackgroundUpload />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name="width" hidden>
        <InputNumber />
      </Form.Item>
      <Form.Item name="height" hidden>
        <InputNumber />
      </Form.Item>
      <Preview editable={!readOnly} />
      <Form.Item label="证书字段（坐标与大小以背景图像素计，坐标为字段左上角）" required>
        <Placements editable={!readOnly} />
      </Form.Item>
    </FormModal>
  );
}
