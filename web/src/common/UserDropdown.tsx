import { DownOutlined, UserOutlined } from '@ant-design/icons';
import type { UserInfo } from '@contest/shared';
import { Avatar, Dropdown, Space, type MenuProps } from 'antd';
import { confirmLogout } from './auth.ts';
import { avatarUrl } from './files.ts';

/** Avatar and name opening a menu; every entry ends with logout behind its confirmation (spec §8). */
export function UserDropdown({ user, items }: { user: UserInfo; items: MenuProps['items'] }) {
  return (
    <Dropdown menu={{ items: [...(items ?? []), { type: 'divider' }, { key: 'logout', label: '退出登录', onClick: confirmLogout }] }} placement="bottomRight">
      <Space style={{ cursor: 'pointer' }} data-testid="user-dropdown">
        <Avatar size="small" src={user.faceImg ? avatarUrl(user.faceImg) : undefined} icon={<UserOutlined />} />
        <span>{user.userName || user.username}</span>
        <DownOutlined style={{ fontSize: 10 }} />
      </Space>
    </Dropdown>
  );
}

/** The back office's and review centre's entries: return to the front end (spec §2.3). */
export const BACK_TO_FRONT: MenuProps['items'] = [{ key: 'front', label: <a href="/">返回前台</a> }];
