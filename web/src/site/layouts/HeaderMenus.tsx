import { SITE_CODES, type NavLink, type UserInfo } from '@contest/shared';
import { DownOutlined, MenuOutlined } from '@ant-design/icons';
import { Button, Dropdown, type MenuProps } from 'antd';
import { usePermissions } from '../../common/auth.ts';
import { useAuthConfig } from '../../common/siteConfig.ts';
import { UserDropdown } from '../../common/UserDropdown.tsx';
import { LinkOut, type NavItem } from './LinkOut.tsx';

// The header's dropdowns: antd's Dropdown brings Menu and its overflow machinery, so the layout loads them lazily.

/** A header link with sub-links under it. */
export function NavDropdown({ link }: { link: NavItem }) {
  return (
    <Dropdown menu={{ items: (link.children ?? []).map((c) => ({ key: c.url + c.name, label: <LinkOut link={c} /> })) }}>
      <span>
        <LinkOut link={link} /> <DownOutlined style={{ fontSize: 10 }} />
      </span>
    </Dropdown>
  );
}

/** On a phone every link, sub-links included, sits behind one button. */
export function MobileNav({ links }: { links: NavItem[] }) {
  const items = links.flatMap((l): NavLink[] => [l, ...(l.children ?? [])]).map((l) => ({ key: l.url + l.name, label: <LinkOut link={l} /> }));
  return (
    <Dropdown menu={{ items }}>
      <Button type="text" icon={<MenuOutlined />} aria-label="导航" />
    </Dropdown>
  );
}

export function UserMenu({ user }: { user: UserInfo }) {
  const { has } = usePermissions();
  const { data: config } = useAuthConfig();
  const securityUrl = config?.accountSecurityUrl ?? '/userCenter/accountSet';
  const items = [
    has(SITE_CODES.userCenter) && { key: 'userCenter', label: <a href="/userCenter">个人中心</a> },
    has(SITE_CODES.review) && { key: 'review', label: <a href="/review.html">评审中心</a> },
    has(SITE_CODES.manager) && { key: 'manager', label: <a href="/backadmin.html">管理后台</a> },
    has(SITE_CODES.userManager) && { key: 'userManager', label: <a href="/user/manager">用户中心</a> },
    {
      key: 'security',
      label: (
        <a href={securityUrl} target={securityUrl.startsWith('http') ? '_blank' : undefined} rel="noopener noreferrer">
          账号安全
        </a>
      ),
    },
  ].filter(Boolean) as MenuProps['items'];
  return <UserDropdown user={user} items={items} />;
}
