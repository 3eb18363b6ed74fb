import { ADMIN_ROUTES, accessibleRoutes, flattenRoutes, routeAllowed, type AdminRoute } from '@contest/shared';
import { MenuFoldOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import { Breadcrumb, Button, Grid, Layout, Menu, type MenuProps } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { Link, Outlet, matchPath, useLocation, useNavigate } from 'react-router';
import { useCurrentUser, usePermissions } from '../../common/auth.ts';
import { BACK_TO_FRONT, UserDropdown } from '../../common/UserDropdown.tsx';
import { DownloadLauncher } from '../../downloads/DownloadLauncher.tsx';
import { ICONS } from './icons.tsx';
import { TagTabs, useTags } from './TagTabs.tsx';

function menuItems(routes: AdminRoute[]): MenuProps['items'] {
  return routes
    .filter((r) => !r.hidden)
    .map((r) => ({
      key: r.path,
      icon: r.meta.icon ? ICONS[r.meta.icon] : undefined,
      label: r.meta.title,
      children: r.children ? menuItems(r.children) : undefined,
    }));
}

/** Sidebar, breadcrumb and tag tabs, all built from the one shared route list (spec §2.3). */
export function AdminLayout() {
  const { data: user } = useCurrentUser();
  const { codes } = usePermissions();
  const location = useLocation();
  const navigate = useNavigate();
  // On a phone (narrower than antd's md, 768 px) the menu is a drawer over the page, closed until asked for and closed
  // again once a page is picked; on a wider screen it sits beside the page and folds to its icons.
  const narrow = Grid.useBreakpoint().md === false;
  const [folded, setFolded] = useState(false);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const collapsed = narrow ? !drawerOpen : folded;
  const toggle = () => (narrow ? setDrawerOpen(!drawerOpen) : setFolded(!folded));
  // The open drawer closes with Escape as well as with a tap on the page beside it.
  useEffect(() => {
    if (!drawerOpen) return;
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setDrawerOpen(false);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [drawerOpen]);
  const routes = useMemo(() => accessibleRoutes(ADMIN_ROUTES, codes), [codes]);
  const flat = useMemo(() => flattenRoutes(ADMIN_ROUTES), []);
  // Detail pages have parameters (`/competition/edit/:competitionId`): match patterns, not plain paths.
  // A page the user may not open is about to become the 401 page and gets no tab or breadcrumb.
  const current = useMemo(
    () => flat.find(({ route }) => matchPath(route.path, location.pathname) && routeAllowed(route.meta.permission, codes)),
    [flat, location.pathname, codes],
  );
  // With the query: a page may take its record there (`/question/questionWorks?questionId=`), and its tab returns to it.
  const tags = useTags(current?.route, location.pathname + location.search);
  // A hidden page lights up the list it belongs to.
  const activeMenu = current?.route.meta.activeMenu;
  const listRoute = activeMenu ? flat.find(({ route }) => route.path === activeMenu)?.route : undefined;
  const [openKeys, setOpenKeys] = useState<string[]>([]);
  // The group of the page being shown opens by itself, whichever way the page was reached.
  useEffect(() => {
    const parents = current?.parents.map((p) => p.path) ?? [];
    setOpenKeys((keys) => [...new Set([...keys, ...parents])]);
  }, [current]);

  const crumbs = [
    // Router links, not plain hash addresses: a page with unsaved changes holds back only the router's navigations.
    { title: <Link to="/index">首页</Link> },
    ...(current && current.route.path !== '/index'
      ? [
          ...current.parents.map((p) => ({ title: p.meta.title })),
          ...(listRoute ? [{ title: <Link to={listRoute.path}>{listRoute.meta.title}</Link> }] : []),
          { title: current.route.meta.title },
        ]
      : []),
  ];
  return (
    <Layout style={{ minHeight: '100vh' }}>
      {narrow && drawerOpen && (
        // biome-ignore lint/a11y/noStaticElementInteractions: the mask is for the pointer; the keyboard closes the drawer with Escape or the menu button
        // biome-ignore lint/a11y/useKeyWithClickEvents: the same: Escape (above) is the keyboard's way
        <div className="admin-sider-mask" onClick={() => setDrawerOpen(false)} />
      )}
      <Layout.Sider
        collapsible
        collapsed={collapsed}
        collapsedWidth={narrow ? 0 : 80}
        trigger={null}
        width={220}
        className={narrow ? 'admin-sider-drawer' : undefined}
      >
        <div className="admin-logo">
          <img src="/favicon.svg" alt="" />
          {!collapsed && '竞赛平台管理后台'}
        </div>
        <Menu
          theme="dark"
          mode="inline"
          selectedKeys={[activeMenu ?? location.pathname]}
          openKeys={collapsed ? undefined : openKeys}
          onOpenChange={setOpenKeys}
          items={menuItems(routes)}
          onClick={({ key }) => {
            if (narrow) setDrawerOpen(false);
            navigate(key);
          }}
        />
      </Layout.Sider>
      <Layout>
        <div className="admin-header">
          <Button
            type="text"
            icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
            onClick={toggle}
            aria-label={narrow ? (drawerOpen ? '收起菜单' : '打开菜单') : '折叠菜单'}
          />
          <Breadcrumb
            // On a phone only the page's own title, so the user menu keeps its room.
            style={{ minWidth: 0, overflow: 'hidden', whiteSpace: 'nowrap' }}
            items={narrow ? crumbs.slice(-1) : crumbs}
          />
          <div style={{ marginLeft: 'auto' }}>{user && <UserDropdown user={user} items={BACK_TO_FRONT} />}</div>
        </div>
        <TagTabs tags={tags} />
        <Layout.Content className="admin-content">
          <Outlet key={tags.refreshKey} />
        </Layout.Content>
      </Layout>
      <DownloadLauncher />
    </Layout>
  );
}
