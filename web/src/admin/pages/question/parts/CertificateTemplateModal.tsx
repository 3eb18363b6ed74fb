import {
  CERT_BUILTIN_FIELDS,
  CERT_BUILTIN_LAYOUTS,
  CERT_BUILTIN_NAMES,
  CERT_BUILTIN_PREFIX,
  CERT_BUILTIN_RULE,
  CERT_BUILTIN_SIZE,
  CERT_DEFAULT_TEXT,
  CERT_FIELDS,
  CERT_FIELD_NAMES,
  CERT_SAMPLE,
  CERT_SAMPLE_CODE,
  certDateText,
  builtinLayoutOf,
  certFieldText,
  certNoValue,
  type CertAlign,
  type CertBuiltinLayout,
  type CertField,
  type CertFieldPlacement,
  type TemplateBody,
} from '@contest/shared';
import { DeleteOutlined, LoadingOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Col, ColorPicker, Empty, Form, Input, InputNumber, Modal, Radio, Row, Select, Skeleton, Space, Tooltip, Upload } from 'antd';
import type { Color } from 'antd/es/color-picker';
import { createContext, useContext, useLayoutEffect, useRef, useState, type CSSProperties, type PointerEvent, type RefObject } from 'react';
import { fileUrl } from '#src/common/files.ts';
import { FormModal } from '#src/common/FormModal.tsx';
import { certificateApi, certificateKeys, certificateUrls } from '#src/api/certificates.ts';
import { reviewKeys } from '#src/api/review.ts';
import { competitionDetailApi, competitionDetailKeys } from '#src/api/competitions.ts';
import { useListMutation } from '#src/common/usePagedList.ts';
import { uploadError, uploadHeaders } from '#src/common/upload.ts';

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
/** The values the preview shows: the question's own where there are any (a certificate already written), samples otherwise. */
type Sample = Record<Exclude<CertField, 'qrcode' | 'wording'>, string>;
const SampleContext = createContext<Sample>(CERT_SAMPLE);

/** What one field shows on the page: its wording around the value (the number with the short code beside it). */
const fieldText = (f: CertFieldPlacement, sample: Sample) =>
  f.field === 'qrcode'
    ? ''
    : certFieldText(f, f.field === 'wording' ? '' : f.field === 'certNo' ? certNoValue(sample.certNo, CERT_SAMPLE_CODE) : sample[f.field]);

/** Moves and resizes fields laid out on one page size in proportion onto another. */
function scaleFields(fields: CertFieldPlacement[], from: { width: number; height: number }, to: { width: number; height: number }) {
  const rx = to.width / from.width;
  const ry = to.height / from.height;
  return fields.map((f) => ({
    ...f,
    x: Math.round(f.x * rx),
    y: Math.round(f.y * ry),
    size: Math.min(600, Math.max(8, Math.round(f.size * Math.min(rx, ry)))),
  }));
}

/** A sensible first place for a field: texts down the left side, the QR code in the bottom-right corner. */
function defaultPlacement(field: CertField, order: number, width: number, height: number): CertFieldPlacement {
  if (field === 'qrcode') {
    const side = Math.round(Math.min(width, height) * 0.15);
    return {
      field,
      x: Math.max(0, width - side - Math.round(width * 0.06)),
      y: Math.max(0, height - side - Math.round(height * 0.08)),
      size: Math.max(8, side),
      color: '#000000',
    };
  }
  const size = Math.min(600, Math.max(8, Math.round(height / 24)));
  const text = CERT_DEFAULT_TEXT[field];
  return {
    field,
    x: Math.round(width * 0.12),
    y: Math.min(height - size, Math.round(height * (0.12 + order * 0.065))),
    size,
    color: '#000000',
    align: 'left',
    ...(text ? { text } : {}),
  };
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
    if (width && height && (width !== bg.width || height !== bg.height)) form.setFieldValue('fields', scaleFields(fields, { width, height }, bg));
    form.setFieldsValue({ width: bg.width, height: bg.height });
    onChange?.(bg.uri);
  }
  return (
    <Space>
      <Upload
        name="file"
        accept="image/png,image/jpeg"
        action={certificateUrls.background}
        headers={uploadHeaders()}
        showUploadList={false}
        onChange={({ file }) => {
          setUploading(file.status === 'uploading');
          if (file.status === 'done') accept(file.response.data);
          if (file.status === 'error') void message.error(uploadError(file.response), 5);
        }}
      >
        <Button icon={uploading ? <LoadingOutlined /> : <UploadOutlined />} disabled={uploading || undefined}>
          {value && !builtinLayoutOf(value) ? '更换背景图' : '上传背景图'}
        </Button>
      </Upload>
      <span className="admin-hint">PNG或JPEG，建议使用证书的实际印刷尺寸（如A4横向 3508×2480）</span>
    </Space>
  );
}

/**
 * The fields on a built-in layout chosen after another page: the layout's own places (and alignment, size) for the
 * fields it has, keeping the organiser's wording and colours; other fields moved in proportion. None placed yet: the
 * layout's fields.
 */
function onLayout(layout: CertBuiltinLayout, fields: CertFieldPlacement[], from: { width: number; height: number }): CertFieldPlacement[] {
  if (!fields.length) return CERT_BUILTIN_FIELDS[layout];
  return fields.map((f) => {
    const own = CERT_BUILTIN_FIELDS[layout].find((d) => d.field === f.field);
    return own
      ? { ...own, color: f.color || own.color, ...(f.text !== undefined ? { text: f.text } : {}) }
      : scaleFields([f], from, CERT_BUILTIN_SIZE[layout])[0]!;
  });
}

/**
 * The layout: a built-in one (drawn by the server on A4, no image needed; listed first) or an uploaded background.
 * The value is the template's `backgroundUri`. A built-in layout puts the fields in its own places (see `onLayout`);
 * 恢复默认字段 brings back its fields as they came. An uploaded background of another size moves them in proportion.
 */
function LayoutPicker({ value, onChange, editable }: { value?: string; onChange?: (uri: string | undefined) => void; editable: boolean }) {
  const { modal } = App.useApp();
  const form = Form.useFormInstance<Values>();
  const builtin = builtinLayoutOf(value);
  const [uploading, setUploading] = useState(Boolean(value && !builtin));
  const mode = builtin ?? (uploading ? 'upload' : undefined);

  function choose(next: CertBuiltinLayout | 'upload') {
    if (next === 'upload') {
      setUploading(true);
      if (builtin) onChange?.(undefined);
      return;
    }
    setUploading(false);
    const { width, height, fields = [] } = form.getFieldsValue(['width', 'height', 'fields']) as Partial<Values>;
    const size = CERT_BUILTIN_SIZE[next];
    form.setFieldsValue({ ...size, fields: onLayout(next, fields.filter(Boolean), width && height ? { width, height } : size) });
    onChange?.(`${CERT_BUILTIN_PREFIX}${next}`);
  }
  const restore = (layout: CertBuiltinLayout) =>
    modal.confirm({
      title: `恢复“${CERT_BUILTIN_NAMES[layout]}”的默认字段？`,
      content: '当前字段的位置、字号和文字将被替换。',
      onOk: () => form.setFieldValue('fields', CERT_BUILTIN_FIELDS[layout]),
    });

  return (
    <Space direction="vertical" size={8} style={{ width: '100%' }}>
      <Radio.Group
        value={mode}
        disabled={!editable}
        optionType="button"
        onChange={(e) => choose(e.target.value as CertBuiltinLayout | 'upload')}
        options={[...CERT_BUILTIN_LAYOUTS.map((l) => ({ value: l, label: CERT_BUILTIN_NAMES[l] })), { value: 'upload', label: '上传背景图' }]}
      />
      {builtin && editable && (
        <Space>
          <span className="admin-hint">边框与底纹由系统绘制；文字可在预览中拖动，或在下方修改位置、字号和文字</span>
          <Button size="small" onClick={() => restore(builtin)}>
            恢复默认字段
          </Button>
        </Space>
      )}
      {mode === 'upload' && editable && <BackgroundUpload value={builtin ? undefined : value} onChange={onChange} />}
    </Space>
  );
}

/** The frame of a built-in layout, as the server draws it (see the certificates' pdf.ts), scaled to the preview. */
function BuiltinFrame({ layout, width, height, scale }: { layout: CertBuiltinLayout; width: number; height: number; scale: number }) {
  const gold = '#b8862e';
  const box = (inset: number, line: number, color: string): CSSProperties => ({
    position: 'absolute',
    left: (inset - line / 2) * scale,
    top: (inset - line / 2) * scale,
    width: (width - 2 * inset + line) * scale,
    height: (height - 2 * inset + line) * scale,
    border: `${Math.max(1, line * scale)}px solid ${color}`,
    boxSizing: 'border-box',
    pointerEvents: 'none',
  });
  const diamond = (cx: number, cy: number, side: number): CSSProperties => ({
    position: 'absolute',
    left: (cx - side / 2) * scale,
    top: (cy - side / 2) * scale,
    width: side * scale,
    height: side * scale,
    background: gold,
    transform: 'rotate(45deg)',
    pointerEvents: 'none',
  });
  const rule = CERT_BUILTIN_RULE[layout];
  return (
    <>
      <div style={box(18, 6, gold)} />
      <div style={box(30, 1.2, gold)} />
      <div style={box(36, 0.6, '#d9bf85')} />
      {[
        [30, 30],
        [width - 30, 30],
        [30, height - 30],
        [width - 30, height - 30],
      ].map(([x, y]) => (
        <div key={`${x}-${y}`} style={diamond(x!, y!, 14)} />
      ))}
      <div
        style={{
          position: 'absolute',
          left: (width / 2 - rule.half) * scale,
          top: rule.y * scale,
          width: 2 * rule.half * scale,
          height: Math.max(1, scale),
          background: gold,
          pointerEvents: 'none',
        }}
      />
      <div style={diamond(width / 2, rule.y, 7)} />
    </>
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

  const sample = useContext(SampleContext);
  const builtin = builtinLayoutOf(uri);
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
          选择内置模板或上传背景图后在此预览证书
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
            background: builtin ? '#fffdf6' : `#fff url("${fileUrl(uri)}") center / 100% 100% no-repeat`,
          }}
        >
          {builtin && <BuiltinFrame layout={builtin} width={width} height={height} scale={scale} />}
          {fields.map((f, index) => {
            if (!(f?.field && typeof f.x === 'number' && typeof f.y === 'number' && typeof f.size === 'number')) return null;
            const text = fieldText(f, sample);
            return (
              <div
                key={f.field}
                data-field={f.field}
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
                    ? {
                        width: f.size * scale,
                        height: f.size * scale,
                        border: '1px dashed #999',
                        background: 'rgba(255,255,255,0.7)',
                        display: 'flex',
                        alignItems: 'center',
                        justifyContent: 'center',
                        fontSize: Math.min(12, Math.max(6, (f.size * scale) / 3)),
                        whiteSpace: 'nowrap',
                        overflow: 'hidden',
                        color: '#999',
                      }
                    : {
                        fontSize: f.size * scale,
                        lineHeight: 1,
                        whiteSpace: 'nowrap',
                        color: text ? f.color || '#000000' : '#bbbbbb',
                        transform: f.align === 'center' ? 'translateX(-50%)' : f.align === 'right' ? 'translateX(-100%)' : undefined,
                      }),
                }}
              >
                {f.field === 'qrcode' ? '二维码' : text || `［${CERT_FIELD_NAMES[f.field]}］`}
              </div>
            );
          })}
        </div>
      )}
    </div>
  );
}

const ALIGN_OPTIONS: { value: CertAlign; label: string }[] = [
  { value: 'left', label: '居左' },
  { value: 'center', label: '居中' },
  { value: 'right', label: '居右' },
];

/**
 * The placed fields: which, where (page pixels), how big, which colour, aligned how, and the wording around the value
 * (`{}` stands for it). Each field at most once; 姓名 required.
 */
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
                <Col flex="120px">
                  <Form.Item name={[row.name, 'field']} rules={[{ required: true, message: '请选择字段' }]}>
                    <Select
                      aria-label="字段"
                      options={CERT_FIELDS.map((f) => ({ value: f, label: CERT_FIELD_NAMES[f], disabled: f !== current && used.has(f) }))}
                    />
                  </Form.Item>
                </Col>
                <Col flex="100px">
                  <Form.Item name={[row.name, 'x']} rules={[{ required: true, message: '请输入横坐标' }]}>
                    <InputNumber prefix="X" min={0} max={10000} precision={0} style={{ width: '100%' }} />
                  </Form.Item>
                </Col>
                <Col flex="100px">
                  <Form.Item name={[row.name, 'y']} rules={[{ required: true, message: '请输入纵坐标' }]}>
                    <InputNumber prefix="Y" min={0} max={10000} precision={0} style={{ width: '100%' }} />
                  </Form.Item>
                </Col>
                <Col flex="110px">
                  <Form.Item name={[row.name, 'size']} rules={[{ required: true, message: '请输入大小' }]}>
                    <InputNumber prefix={current === 'qrcode' ? '边长' : '字号'} min={8} max={600} precision={0} style={{ width: '100%' }} />
                  </Form.Item>
                </Col>
                <Col flex="110px">
                  {current !== 'qrcode' && (
                    <Form.Item name={[row.name, 'color']} getValueFromEvent={(c: Color) => c.toHexString()}>
                      <ColorPicker format="hex" disabledAlpha showText />
                    </Form.Item>
                  )}
                </Col>
                <Col flex="90px">
                  {current !== 'qrcode' && (
                    <Form.Item name={[row.name, 'align']}>
                      <Select aria-label="对齐" placeholder="居左" options={ALIGN_OPTIONS} />
                    </Form.Item>
                  )}
                </Col>
                <Col flex="auto">
                  {current && current !== 'qrcode' && (
                    <Form.Item
                      name={[row.name, 'text']}
                      rules={[
                        {
                          validator: async (_, text: string | undefined) => {
                            if (text && current !== 'wording' && !text.includes('{}'))
                              throw new Error(`“${CERT_FIELD_NAMES[current]}”的文字须包含{}，表示字段的值`);
                          },
                        },
                      ]}
                    >
                      <Input
                        aria-label="文字"
                        maxLength={100}
                        placeholder={current === 'wording' ? '如：特发此证，以资鼓励。' : '文字，{}为字段的值，如：荣获{}'}
                      />
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
export function CertificateTemplateModal({
  competitionId,
  templateId,
  readOnly,
  onClose,
  question,
}: {
  competitionId: number;
  templateId: number | null;
  readOnly: boolean;
  onClose: () => void;
  /** The question the page is about: the preview shows its competition, its title and one of its certificates' holders. */
  question?: { id: number; title: string; competitionName: string };
}) {
  const { message } = App.useApp();
  const written = useQuery({
    queryKey: certificateKeys.previewHolder(question?.id ?? 0),
    enabled: Boolean(question),
    queryFn: () => certificateApi.previewHolder(question!.id),
  });
  const holder = written.data?.list[0];
  // Before any certificate is written, the best-ranked team with an award stands in for the holder's team and award.
  const ranked = useQuery({
    queryKey: certificateKeys.previewTeam(question?.id ?? 0),
    enabled: Boolean(question) && written.isSuccess && !holder,
    queryFn: () => certificateApi.previewTeam(question!.id),
  });
  const top = ranked.data?.list.find((g) => g.awardName);
  // The organiser and the date as the certificates will print them: the competition's organisation, today in Beijing.
  const competition = useQuery({ queryKey: competitionDetailKeys.detail(competitionId), queryFn: () => competitionDetailApi.detail(competitionId) });
  const teamName = holder?.teamName ?? top?.teamName;
  // An individual entry's only member is its holder (a team's members are not read here: the sample's stand in).
  const individual = teamName?.endsWith('（个人）') ? teamName.slice(0, -'（个人）'.length) : null;
  const sample: Sample = {
    ...CERT_SAMPLE,
    date: certDateText(new Date()),
    ...(competition.data ? { organizer: competition.data.orgName, competition: competition.data.name } : {}),
    ...(question ? { competition: question.competitionName, question: question.title } : {}),
    ...(top ? { team: top.teamName, award: top.awardName!, name: individual ?? CERT_SAMPLE.name } : {}),
    ...(holder ? { name: holder.holderName, team: holder.teamName, school: holder.school ?? '', award: holder.awardName, certNo: holder.certNo } : {}),
    ...(individual ? { members: individual } : {}),
  };
  const template = useQuery({
    queryKey: certificateKeys.template(templateId ?? 0),
    enabled: Boolean(templateId),
    queryFn: () => certificateApi.template(templateId!),
  });
  // Every template list, and each template by id.
  const saving = useListMutation(
    (body: TemplateBody) => (templateId ? certificateApi.updateTemplate(templateId, body) : certificateApi.createTemplate(competitionId, body)),
    [reviewKeys.templatesAll, certificateKeys.templatesAll],
    () => void message.success('证书模板已保存'),
  );
  const title = templateId ? (readOnly ? '查看证书模板' : '编辑证书模板') : '新建证书模板';

  if (templateId && !template.data) {
    return (
      <Modal open title={title} width={980} footer={null} onCancel={onClose}>
        {template.isError ? <Empty description="证书模板加载失败" /> : <Skeleton active paragraph={{ rows: 10 }} />}
      </Modal>
    );
  }

  const t = template.data;
  // A new template starts on the built-in landscape layout, with its fields and wording: ready to use as it is.
  const initial: Partial<Values> = t
    ? { name: t.name, backgroundUri: t.backgroundUri, width: t.width, height: t.height, fields: t.fields }
    : { name: '获奖证书', backgroundUri: `${CERT_BUILTIN_PREFIX}landscape`, ...CERT_BUILTIN_SIZE.landscape, fields: CERT_BUILTIN_FIELDS.landscape };
  function save(v: Values) {
    const body: TemplateBody = {
      name: v.name,
      backgroundUri: v.backgroundUri,
      fields: v.fields.map(({ field, x, y, size, color, align, text }) => ({
        field,
        x,
        y,
        size,
        color: color || '#000000',
        ...(align && align !== 'left' && field !== 'qrcode' ? { align } : {}),
        ...(field === 'wording' ? { text: text ?? '' } : text && field !== 'qrcode' ? { text } : {}),
      })),
    };
    return saving.mutateAsync(body);
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
          <Form.Item name="backgroundUri" label="版式" rules={[{ required: true, message: '请上传证书背景图' }]}>
            <LayoutPicker editable={!readOnly} />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name="width" hidden>
        <InputNumber />
      </Form.Item>
      <Form.Item name="height" hidden>
        <InputNumber />
      </Form.Item>
      <SampleContext.Provider value={sample}>
        <Preview editable={!readOnly} />
      </SampleContext.Provider>
      <Form.Item label="证书字段（坐标与大小以页面像素计，坐标为字段的左上角、居中时为上边的中点、右对齐时为右上角）" required>
        <Placements editable={!readOnly} />
      </Form.Item>
    </FormModal>
  );
}
