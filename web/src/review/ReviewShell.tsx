import { AuditOutlined } from '@ant-design/icons';
import { Grid, Layout, Typography } from 'antd';
import { Link, Outlet } from 'react-router';
import { useCurrentUser } from '../common/auth.ts';
import { BACK_TO_FRONT, UserDropdown } from '../common/UserDropdown.tsx';
import { DownloadLauncher } from '../downloads/DownloadLauncher.tsx';

/** The review centre (spec §1): a judge's own space, reached from the user dropdown. */
export function ReviewShell() {
  const { data: user } = useCurrentUser();
  // A phone has room for the name and the user's menu only with narrower margins.
  const phone = Grid.useBreakpoint().md === false;
  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Layout.Header
        style={{ display: 'flex', alignItems: 'center', gap: 12, background: '#fff', boxShadow: '0 1px 4px rgba(0,21,41,.08)', paddingInline: phone ? 12 : 50 }}
      >
        <Link to="/" style={{ display: 'flex', alignItems: 'center', gap: 8, flex: 'none' }}>
          <AuditOutlined style={{ fontSize: 22, color: '#1890ff' }} />
          <Typography.Title level={4} style={{ margin: 0, whiteSpace: 'nowrap' }}>
            评审中心
          </Typography.Title>
        </Link>
        <div style={{ marginLeft: 'auto', minWidth: 0, overflow: 'hidden' }}>{user && <UserDropdown user={user} items={BACK_TO_FRONT} />}</div>
      </Layout.Header>
      <Layout.Content style={{ padding: phone ? 12 : 24, maxWidth: 1200, width: '100%', margin: '0 auto' }}>
        <Outlet />
      </Layout.Content>
      <DownloadLauncher />
    </Layout>
  );
}
