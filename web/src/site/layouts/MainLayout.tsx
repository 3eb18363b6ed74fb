import { NOTICE_KIND, unreadKind, type UnreadCount } from '@contest/shared';
import { BellOutlined, DownOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Space } from 'antd';
import { Suspense, lazy, useEffect, useRef, useState } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { brandApi, brandKeys } from '../../api/catalogue.ts';
import { useCurrentUser } from '../../common/auth.ts';
import { isMobile } from '../../common/device.ts';
import { avatarUrl } from '../../common/files.ts';
import { goLogin } from '../../common/http.ts';
import { scrollToTop, sectionMode } from '../../common/scroll.ts';
import { BRAND_ID_KEY } from '../../common/storage.ts';
import { DownloadLauncher } from '../../downloads/DownloadLauncher.tsx';
import { currentBrandId, useBrandNav } from '../brand.ts';
import { useUnreadBadge } from '../unread.ts';
import { LinkOut, type NavItem } from './LinkOut.tsx';

/** Until a brand's own navigation is chosen, the platform's. */
const PLATFORM_NAV: NavItem[] = [{ name: '竞赛列表', url: '/competitionList', type: 0 }];

/** The dropdowns (antd's Dropdown and Menu) are fetched when one is shown: the platform's list on a desktop has none. */
const NavDropdown = lazy(() => import('./HeaderMenus.tsx').then((m) => ({ default: m.NavDropdown })));
const MobileNav = lazy(() => import('./HeaderMenus.tsx').then((m) => ({ default: m.MobileNav })));
const UserMenu = lazy(() => import('./HeaderMenus.tsx').then((m) => ({ default: m.UserMenu })));

function NavEntry({ link }: { link: NavItem }) {
  if (!link.children?.length) return <LinkOut link={link} />;
  const label = (
    <span>
      <LinkOut link={link} /> <DownOutlined style={{ fontSize: 10 }} />
    </span>
  );
  return (
    <Suspense fallback={label}>
      <NavDropdown link={link} />
    </Suspense>
  );
}

function useMobile() {
  const [mobile, setMobile] = useState(isMobile);
  useEffect(() => {
    const onResize = () => setMobile(isMobile());
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return mobile;
}

/** The brand in view: the one in the address on a brand's list, the remembered one elsewhere, none on the full list. */
function useBrandId(pathname: string): number | null {
  const match = /^\/competitionList\/(\d+)/.exec(pathname);
  if (match) sessionStorage.setItem(BRAND_ID_KEY, match[1]!);
  else if (pathname === '/competitionList') sessionStorage.removeItem(BRAND_ID_KEY);
  return currentBrandId();
}

/** Scrolls to the top over 800 ms, only when moving between sections (spec §2.1). */
function useSectionScroll(pathname: string) {
  const previous = useRef(sectionMode(pathname));
  useEffect(() => {
    const mode = sectionMode(pathname);
    if (mode !== previous.current) scrollToTop();
    previous.current = mode;
  }, [pathname]);
}

/** Fetched the first time there is an unread message: most first screens never need it. */
const CountBadge = lazy(() => import('./CountBadge.tsx'));

/** The bell leading to the messages, with the unread count shown at most as 99+ (spec §2.2, §9). */
export function UnreadBadge({ counts }: { counts: UnreadCount }) {
  const count = counts.total;
  const bell = (
    <span data-testid="unread-badge" data-count={count}>
      <BellOutlined />
    </span>
  );
  return (
    <Link
      to={unreadKind(counts) === NOTICE_KIND.personal ? `/message?kind=${NOTICE_KIND.personal}` : '/message'}
      className="site-bell"
      aria-label={count ? `消息（${count}条未读）` : '消息'}
    >
      {count > 0 ? (
        <Suspense fallback={bell}>
          <CountBadge data-testid="unread-badge" data-count={count} count={count}>
            <BellOutlined />
          </CountBadge>
        </Suspense>
      ) : (
        bell
      )}
    </Link>
  );
}

export function MainLayout() {
  const { pathname } = useLocation();
  const { data: user, isLoading } = useCurrentUser();
  const unread = useUnreadBadge(Boolean(user));
  const mobile = useMobile();
  const brandId = useBrandId(pathname);
  useSectionScroll(pathname);
  const { data: nav } = useBrandNav(brandId);
  const { data: brand } = useQuery({
    queryKey: brandKeys.detail(brandId),
    queryFn: () => brandApi.detail(brandId!, true),
    enabled: brandId !== null,
    staleTime: 5 * 60_000,
  });
  const links: NavItem[] = nav?.navList.length ? nav.navList : PLATFORM_NAV;
  const logo = nav?.topLogoPath ? avatarUrl(nav.topLogoPath) : brand?.logo ? avatarUrl(brand.logo) : '/favicon.svg';
  return (
    <>
      <header className="site-header">
        <a className="site-logo" href={brandId ? `/competitionList/${brandId}` : '/competitionList'}>
          <img src={logo} alt="" />
          <span className="site-logo-text">{brand?.shortName ?? '竞赛平台'}</span>
        </a>
        {mobile ? (
          <Suspense fallback={null}>
            <MobileNav links={links} />
          </Suspense>
        ) : (
          <nav className="site-nav">
            {links.map((link) => (
              <NavEntry key={link.url + link.name} link={link} />
            ))}
          </nav>
        )}
        <div className="site-user">
          {user ? (
            <>
              <UnreadBadge counts={unread} />
              <Suspense fallback={null}>
                <UserMenu user={user} />
              </Suspense>
            </>
          ) : isLoading ? null : (
            <Space size={mobile ? 4 : 8}>
              <Button type="link" size={mobile ? 'small' : 'middle'} onClick={goLogin}>
                登录
              </Button>
              <Link to="/register">
                <Button type="primary" size={mobile ? 'small' : 'middle'}>
                  注册
                </Button>
              </Link>
            </Space>
          )}
        </div>
      </header>
      <main className="site-main">
        <Outlet />
      </main>
      <footer className="site-footer">
        {nav && (nav.sublinksList.length > 0 || nav.frendlinksList.length > 0 || nav.rcodePath) && (
          <div className="site-footer-links">
            {nav.bottomLogoPath && <img className="site-footer-logo" src={avatarUrl(nav.bottomLogoPath)} alt="" />}
            <div>
              {nav.sublinksList.length > 0 && (
                <div data-testid="sublinks">
                  {nav.sublinksList.map((l) => (
                    <LinkOut key={l.url + l.name} link={l} />
                  ))}
                </div>
              )}
              {nav.frendlinksList.length > 0 && (
                <div data-testid="frendlinks">
                  友情链接：
                  {nav.frendlinksList.map((l) => (
                    <LinkOut key={l.url + l.name} link={l} />
                  ))}
                </div>
              )}
            </div>
            {nav.rcodePath && <img className="qr" src={avatarUrl(nav.rcodePath)} alt="二维码" />}
          </div>
        )}
        <div>
          {nav?.copyright ?? `© ${new Date().getFullYear()} 数据分析竞赛平台`}
          <Link to="/certificate/verify" style={{ marginLeft: 16 }}>
            证书查验
          </Link>
        </div>
      </footer>
      <DownloadLauncher />
    </>
  );
}
