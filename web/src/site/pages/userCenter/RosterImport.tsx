import { ROSTER_COLUMNS, ROSTER_MODES, type RosterMode, type RosterReport } from '@contest/shared';
import { UploadOutlined } from '@ant-design/icons';
import { Alert, App, Button, Modal, Radio, Space, Table, Typography, Upload } from 'antd';
import { useState } from 'react';
import { coordinatorUrls } from '#src/api/coordinators.ts';
import { uploadError, uploadHeaders } from '#src/common/upload.ts';

/**
 * A coordinator imports the school's students and teams from the template (issue 36): one row per person, teams by
 * 队伍名称. With bad rows, nothing is imported or only the teams without one, as chosen; the bad rows are listed.
 */
export function RosterImport({ competitionId, schoolId, onImported }: { competitionId: number; schoolId: number; onImported: () => void }) {
  const { message } = App.useApp();
  const [open, setOpen] = useState(false);
  const [mode, setMode] = useState<RosterMode>('all');
  const [importing, setImporting] = useState(false);
  const [report, setReport] = useState<RosterReport | null>(null);
  return (
    <>
      <Button icon={<UploadOutlined />} onClick={() => setOpen(true)} data-testid="roster-import">
        导入学生与队伍
      </Button>
      {open && (
        <Modal title="导入学生与队伍" open width={720} onCancel={() => (setOpen(false), setReport(null))} footer={null}>
          <Space direction="vertical" style={{ width: '100%' }}>
            <Typography.Paragraph>
              每行一名学生，按“队伍名称”组队，每队一名队长。列：{ROSTER_COLUMNS.join('、')}
              。已有账号按手机号匹配；没有账号的学生将以手机号建立账号，用短信验证码登录。
              <a href={coordinatorUrls.template} download>
                下载导入模板
              </a>
            </Typography.Paragraph>
            <Radio.Group value={mode} onChange={(e) => setMode(e.target.value as RosterMode)}>
              {(Object.keys(ROSTER_MODES) as RosterMode[]).map((m) => (
                <Radio key={m} value={m}>
                  {ROSTER_MODES[m]}
                </Radio>
              ))}
            </Radio.Group>
            <Upload
              name="file"
              accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
              action={coordinatorUrls.import(competitionId, schoolId, mode)}
              headers={uploadHeaders()}
              showUploadList={false}
              onChange={({ file }) => {
                setImporting(file.status === 'uploading');
                if (file.status === 'done') {
                  const r = file.response.data as RosterReport;
                  setReport(r);
                  if (r.imported) {
                    void message.success(file.response.message as string);
                    onImported();
                  } else void message.warning(file.response.message as string);
                }
                if (file.status === 'error') void message.error(uploadError(file.response), 5);
              }}
            >
              <Button type="primary" icon={<UploadOutlined />} loading={importing}>
                选择Excel文件并导入
              </Button>
            </Upload>
            {report && (
              <Alert
                type={report.imported ? (report.errors.length ? 'warning' : 'success') : 'error'}
                showIcon
                data-testid="roster-report"
                message={
                  report.imported
                    ? `已导入${report.teams}支队伍、${report.members}人，新建账号${report.accountsCreated}个`
                    : report.errors.length
                      ? `未导入任何队伍：${report.errors.length}处错误，请修改后重新导入`
                      : '表中没有学生：请按模板每行填写一名学生'
                }
                description={report.skippedTeams.length ? `以下队伍因有错误未导入：${report.skippedTeams.join('、')}` : undefined}
              />
            )}
            {report && report.errors.length > 0 && (
              <Table
                size="small"
                rowKey={(e) => `${e.row}-${e.message}`}
                dataSource={report.errors}
                pagination={report.errors.length > 10 ? { pageSize: 10 } : false}
                columns={[
                  { title: '行号', dataIndex: 'row', width: 80, render: (r: number) => (r ? `第${r}行` : '—') },
                  { title: '问题', dataIndex: 'message' },
                ]}
              />
            )}
          </Space>
        </Modal>
      )}
    </>
  );
}
