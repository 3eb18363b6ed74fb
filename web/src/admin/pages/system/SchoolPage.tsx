import { ACTION_CODES, SCHOOL_KINDS, type School, type SchoolBody, type SchoolImportReport, type SchoolKind, type SchoolPageQuery } from '@contest/shared';
import { UploadOutlined } from '@ant-design/icons';
import { App, Button, Card, Form, Input, Modal, Select, Space, Table, Typography, Upload } from 'antd';
import { useState } from 'react';
import { schoolApi, schoolKeys, schoolUrls } from '#src/api/schools.ts';
import { ActionLink } from '#src/common/ActionLink.tsx';
import { usePermissions } from '#src/common/auth.ts';
import { FormModal } from '#src/common/FormModal.tsx';
import { uploadError, uploadHeaders } from '#src/common/upload.ts';
import { useListMutation, useListState, usePagedList } from '#src/common/usePagedList.ts';
import { useConfirm } from '../../components/useConfirm.ts';

const KIND_OPTIONS = Object.entries(SCHOOL_KINDS).map(([value, label]) => ({ value, label }));

/** What an import did: counts, and the rows it could not take with why. */
function ImportReport({ report, onClose }: { report: SchoolImportReport; onClose: () => void }) {
  return (
    <Modal title="导入结果" open onCancel={onClose} footer={<Button onClick={onClose}>知道了</Button>} width={640}>
      <Typography.Paragraph>
        新增 {report.added} 所，更新 {report.updated} 所，未变化 {report.unchanged} 所；{report.linked} 个账号填写的学校已与名单中的同名学校关联。
      </Typography.Paragraph>
      {report.errors.length > 0 && (
        <>
          <Typography.Paragraph type="danger">以下 {report.errors.length} 行未导入，请修改后重新导入（已导入的行不会重复）：</Typography.Paragraph>
          <Table
            size="small"
            rowKey="row"
            pagination={report.errors.length > 10 ? { pageSize: 10 } : false}
            dataSource={report.errors}
            columns={[
              { title: '行号', dataIndex: 'row', width: 80 },
              { title: '原因', dataIndex: 'message' },
            ]}
          />
        </>
      )}
    </Modal>
  );
}

/**
 * 学校名单 (issue 36): the platform's list of schools, which profiles and registration forms pick from. Imported from
 * the Ministry of Education's published list (.xlsx: 学校名称, 学校标识码, 主管部门, 所在地, 办学层次) and edited here.
 */
export default function SchoolPage() {
  const { message } = App.useApp();
  const confirm = useConfirm();
  const canEdit = usePermissions().has(ACTION_CODES.schoolEdit);
  const list = usePagedList(useListState<SchoolPageQuery>(), {
    queryKey: schoolKeys.list,
    queryFn: schoolApi.list,
    emptyText: '名单中还没有学校，可导入教育部公布的学校名单',
  });
  const [editing, setEditing] = useState<{ school: School | null } | null>(null);
  const [report, setReport] = useState<SchoolImportReport | null>(null);
  const [importing, setImporting] = useState(false);
  const save = useListMutation(
    async (values: SchoolBody) => {
      if (editing?.school) await schoolApi.update(editing.school.id, values);
      else await schoolApi.create(values);
    },
    [schoolKeys.all],
    () => void message.success('学校已保存'),
  );
  const removal = useListMutation(schoolApi.remove, [schoolKeys.all], () => void message.success('学校已删除'));

  return (
    <Card
      title="学校名单"
      extra={
        canEdit && (
          <Space wrap>
            <Upload
              name="file"
              accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
              action={schoolUrls.import}
              headers={uploadHeaders()}
              showUploadList={false}
              onChange={({ file }) => {
                setImporting(file.status === 'uploading');
                if (file.status === 'done') {
                  setReport(file.response.data as SchoolImportReport);
                  void list.result.refetch();
                }
                if (file.status === 'error') void message.error(uploadError(file.response), 5);
              }}
            >
              <Button icon={<UploadOutlined />} loading={importing}>
                导入Excel名单
              </Button>
            </Upload>
            <Button type="primary" onClick={() => setEditing({ school: null })}>
              新增学校
            </Button>
          </Space>
        )
      }
    >
      <Typography.Paragraph type="secondary">
        参赛者在个人信息和报名表中从这里选择学校，可按名称、拼音首字母（如“bjdx”）或学校标识码搜索。导入文件使用教育部公布的《全国高等学校名单》格式：学校名称、学校标识码、主管部门、所在地、办学层次；有标识码的按标识码更新，没有的按名称更新。
      </Typography.Paragraph>
      <Space wrap style={{ marginBottom: 16 }}>
        <Input.Search
          allowClear
          placeholder="名称、拼音首字母或标识码"
          style={{ width: 260 }}
          onSearch={(keyword) => list.refine({ keyword: keyword.trim() || undefined })}
        />
        <Select<SchoolKind>
          allowClear
          placeholder="办学层次"
          style={{ width: 160 }}
          options={KIND_OPTIONS}
          onChange={(kind) => list.refine({ kind: kind || undefined })}
        />
      </Space>
      <Table<School>
        {...list.table}
        scroll={{ x: 'max-content' }}
        columns={[
          { title: '学校名称', dataIndex: 'name' },
          { title: '学校标识码', dataIndex: 'code', render: (v) => v ?? '—' },
          { title: '所在地', dataIndex: 'province', render: (v) => v ?? '—' },
          { title: '主管部门', dataIndex: 'department', render: (v) => v ?? '—' },
          { title: '办学层次', dataIndex: 'kind', render: (k: SchoolKind) => SCHOOL_KINDS[k] },
          { title: '拼音首字母', dataIndex: 'initials' },
          { title: '选择的账号', dataIndex: 'users', width: 110 },
          ...(canEdit
            ? [
                {
                  title: '操作',
                  key: 'actions',
                  fixed: 'right' as const,
                  width: 120,
                  render: (_: unknown, s: School) => (
                    <Space size={0}>
                      <ActionLink onClick={() => setEditing({ school: s })}>编辑</ActionLink>
                      <ActionLink danger onClick={() => confirm(`确定从名单中删除“${s.name}”吗？`, () => removal.mutateAsync(s.id), { danger: true })}>
                        删除
                      </ActionLink>
                    </Space>
                  ),
                },
              ]
            : []),
        ]}
      />
      {editing && (
        <FormModal<SchoolBody>
          title={editing.school ? `编辑学校：${editing.school.name}` : '新增学校'}
          initialValues={editing.school ?? { kind: 'undergraduate' }}
          onSave={save.mutateAsync}
          onClose={() => setEditing(null)}
        >
          <Form.Item name="name" label="学校名称" rules={[{ required: true, whitespace: true, message: '请输入学校名称' }]}>
            <Input maxLength={100} />
          </Form.Item>
          <Form.Item
            name="code"
            label="学校标识码"
            rules={[{ pattern: /^\d{10}$/, message: '学校标识码为10位数字' }]}
            extra="教育部公布的10位标识码，没有可不填"
          >
            <Input maxLength={10} />
          </Form.Item>
          <Form.Item name="province" label="所在地">
            <Input maxLength={50} placeholder="如：北京市" />
          </Form.Item>
          <Form.Item name="department" label="主管部门">
            <Input maxLength={100} placeholder="如：教育部" />
          </Form.Item>
          <Form.Item name="kind" label="办学层次" rules={[{ required: true, message: '请选择办学层次' }]}>
            <Select options={KIND_OPTIONS} />
          </Form.Item>
        </FormModal>
      )}
      {report && <ImportReport report={report} onClose={() => setReport(null)} />}
    </Card>
  );
}
