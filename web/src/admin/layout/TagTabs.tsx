import type { AdminRoute } from '@contest/shared';
import { CloseOutlined, DownOutlined, ReloadOutlined } from '@ant-design/icons';
import { Button, Dropdown, Tabs } from 'antd';
import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';

interface Tag {
  /** The route's path pattern: one tab per page, whichever record a detail page shows. */
  key: string;
  /** The address last shown under this tab, where clicking it returns. */
  to: string;
  title: string;
  affix: boolean;
}

const HOME: Tag = { key: '/index', to: '/index', title: '首页', affix: true };

/** The visited pages as tabs; the home tab is affixed and cannot be closed. */
export function useTags(current: AdminRoute | undefined, pathname: string) {
  const [tags, setTags] = useState<Tag[]>([HOME]);
  const navigate = useNavigate();
  const location = useLocation();
  // Refreshing is a navigation to the same address, so that a page holding unsaved changes can ask first.
  const refreshKey = (location.state as { refresh?: number } | null)?.refresh ?? 0;

  useEffect(() => {
    if (!current) return;
    setTags((list) => {
      const existing = list.find((t) => t.key === current.path);
      if (!existing) return [...list, { key: current.path, to: pathname, title: current.meta.title, affix: Boolean(current.meta.affix) }];
      // A detail page opened for another record (or a new record that got its id) keeps its tab.
      return existing.to === pathname ? list : list.map((t) => (t === existing ? { ...t, to: pathname } : t));
    });
  }, [current, pathname]);

  const active = current?.path ?? pathname;
  const target = (key: string) => tags.find((t) => t.key === key)?.to ?? key;
  // The page being shown keeps its tab while closing it waits (a page with unsaved changes may keep the user there).
  const list =
    current && !tags.some((t) => t.key === current.path)
      ? [...tags, { key: current.path, to: pathname, title: current.meta.title, affix: Boolean(current.meta.affix) }]
      : tags;
  return {
    list,
    active,
    refreshKey,
    select: (key: string) => navigate(target(key)),
    refresh: () => navigate({ pathname: location.pathname, search: location.search }, { replace: true, state: { refresh: refreshKey + 1 } }),
    close(key: string) {
      const rest = tags.filter((t) => t.key !== key || t.affix);
      setTags(rest);
      if (key === active) navigate(rest[rest.length - 1]!.to);
    },
    closeOthers() {
      setTags(tags.filter((t) => t.affix || t.key === active));
    },
    closeAll() {
      setTags(tags.filter((t) => t.affix));
      navigate(HOME.to);
    },
  };
}

export function TagTabs({ tags }: { tags: ReturnType<typeof useTags> }) {
  return (
    <div className="admin-tags">
      <Tabs
        hideAdd
        type="editable-card"
        size="small"
        activeKey={tags.active}
        onChange={tags.select}
        onEdit={(key, action) => action === 'remove' && tags.close(String(key))}
        items={tags.list.map((t) => ({ key: t.key, label: t.title, closable: !t.affix }))}
        tabBarExtraContent={
          <Dropdown
            menu={{
              items: [
                { key: 'refresh', icon: <ReloadOutlined />, label: '刷新页面', onClick: tags.refresh },
                { key: 'close', icon: <CloseOutlined />, label: '关闭当前', onClick: () => tags.close(tags.active) },
                { key: 'others', label: '关闭其他', onClick: tags.closeOthers },
                { key: 'all', label: '关闭全部', onClick: tags.closeAll },
              ],
            }}
          >
            <Button size="small" aria-label="标签操作">
              标签操作 <DownOutlined />
            </Button>
          </Dropdown>
        }
      />
    </div>
  );
}
