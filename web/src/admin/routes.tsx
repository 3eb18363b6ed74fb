import { ADMIN_ROUTES, accessibleRoutes, flattenRoutes } from '@contest/shared';
import { Spin } from 'antd';
import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { Navigate, useNavigate, useParams, useRouteError, type RouteObject } from 'react-router';
import { usePermissions } from '../common/auth.ts';
import { ErrorPage } from '../common/ErrorPage.tsx';
import { guardIds, type IdRouteHandle } from '../common/idRoutes.tsx';
import { AdminLayout } from './layout/AdminLayout.tsx';
import { RouteGuard } from './layout/RouteGuard.tsx';

/** Page key of the shared route list (`component`) to its lazily loaded page. */
const PAGES: Record<string, LazyExoticComponent<ComponentType>> = {
  home: lazy(() => import('./pages/HomePage.tsx')),
  'partner/apply': lazy(() => import('./pages/partner/ApplyPage.tsx')),
  'partner/organization': lazy(() => import('./pages/partner/OrganizationPage.tsx')),
  'competition/type': lazy(() => import('./pages/competition/TypePage.tsx')),
  'competition/brand': lazy(() => import('./pages/competition/BrandPage.tsx')),
  'competition/brandNav': lazy(() => import('./pages/competition/BrandNavPage.tsx')),
  'competition/brandRecommend': lazy(() => import('./pages/competition/BrandRecommendPage.tsx')),
  'competition/manager': lazy(() => import('./pages/competition/CompetitionManagerPage.tsx')),
  'competition/edit': lazy(() => import('./pages/competition/CompetitionEditPage.tsx')),
  'competition/view': lazy(() => import('./pages/competition/CompetitionViewPage.tsx')),
  'competition/audit': lazy(() => import('./pages/competition/CompetitionAuditPage.tsx')),
  'question/work': lazy(() => import('./pages/question/WorksPage.tsx')),
  // Spec §2.3 `/question/questionWorks`: the same works page, for the question of `?questionId=`.
  'question/questionWorks': lazy(() => import('./pages/question/WorksPage.tsx')),
  'question/test': lazy(() => import('./pages/question/TestSubmissionsPage.tsx')),
  'question/similarity': lazy(() => import('./pages/question/SimilarityPage.tsx')),
  'question/judge': lazy(() => import('./pages/question/JudgePage.tsx')),
  'question/grade': lazy(() => import('./pages/question/GradePage.tsx')),
  'question/awards': lazy(() => import('./pages/question/AwardsPage.tsx')),
  'question/certificate': lazy(() => import('./pages/question/CertificatePage.tsx')),
  'register/manager': lazy(() => import('./pages/register/RegisterManagerPage.tsx')),
  'review/rules': lazy(() => import('./pages/review/RulesPage.tsx')),
  'review/expert': lazy(() => import('./pages/review/ExpertPage.tsx')),
  'review/assign': lazy(() => import('./pages/review/AssignPage.tsx')),
  'review/grade': lazy(() => import('./pages/review/GradeListPage.tsx')),
  'financial/order': lazy(() => import('./pages/financial/OrderPage.tsx')),
  'financial/invoice': lazy(() => import('./pages/financial/InvoicePage.tsx')),
  'financial/invoiceConfig': lazy(() => import('./pages/financial/InvoiceConfigPage.tsx')),
  'message/notice': lazy(() => import('./pages/message/NoticePage.tsx')),
  'payment/alipay': lazy(() => import('./pages/payment/PaymentConfigPage.tsx').then((m) => ({ default: m.AlipayConfigPage }))),
  'payment/wechat': lazy(() => import('./pages/payment/PaymentConfigPage.tsx').then((m) => ({ default: m.WechatConfigPage }))),
  'payment/bank': lazy(() => import('./pages/payment/PaymentConfigPage.tsx').then((m) => ({ default: m.IcbcConfigPage }))),
  'payment/ccbBank': lazy(() => import('./pages/payment/PaymentConfigPage.tsx').then((m) => ({ default: m.CcbConfigPage }))),
  'payment/custom': lazy(() => import('./pages/payment/PaymentConfigPage.tsx').then((m) => ({ default: m.CustomConfigPage }))),
  'system/user': lazy(() => import('./pages/system/UserPage.tsx')),
  'system/role': lazy(() => import('./pages/system/RolePage.tsx')),
  'system/client': lazy(() => import('./pages/system/ClientPage.tsx')),
  'system/message': lazy(() => import('./pages/system/MessagePage.tsx')),
  'system/realname': lazy(() => import('./pages/system/RealNamePage.tsx')),
  'system/school': lazy(() => import('./pages/system/SchoolPage.tsx')),
};

/** The routes that take their id in the query rather than the path (the shared list has paths only). */
const QUERY_IDS: Record<string, IdRouteHandle> = {
  '/question/questionWorks': { queryIds: ['questionId'] },
};

function RedirectHelper() {
  const params = useParams();
  return <Navigate to={`/${params['*'] ?? ''}`} replace />;
}

/** A group's address opens the first of its pages this user may see, not simply the first page. */
function GroupRedirect({ path }: { path: string }) {
  const { codes } = usePermissions();
  const group = accessibleRoutes(ADMIN_ROUTES, codes).find((r) => r.path === path);
  return <Navigate to={group?.redirect ?? '/401'} replace />;
}

/** The 404 and 401 pages, whose way home is a navigation of the router. */
function AdminErrorPage({ code }: { code: 401 | 404 }) {
  const navigate = useNavigate();
  return <ErrorPage code={code} onHome={() => navigate('/index')} />;
}

/**
 * A page that throws while rendering (usually a lazy chunk gone after an update) is shown by the entry's own error
 * boundary, as before the back office used a data router, instead of the router's developer screen.
 */
function Rethrow(): never {
  throw useRouteError();
}

/**
 * The back office's routes, for the hash data router of `main.tsx` (and memory routers in tests). An id that is not
 * digits (spec §2.3) is the 404 page before the layout or a page mounts.
 */
export const adminRoutes: RouteObject[] = guardIds(
  [
    {
      element: <AdminLayout />,
      errorElement: <Rethrow />,
      children: [
        { path: '/', element: <Navigate to="/index" replace /> },
        { path: '/redirect/*', element: <RedirectHelper /> },
        { path: '/404', element: <AdminErrorPage code={404} /> },
        { path: '/401', element: <AdminErrorPage code={401} /> },
        ...flattenRoutes(ADMIN_ROUTES).map(({ route }) => {
          const Page = PAGES[route.component!]!;
          return {
            path: route.path,
            handle: QUERY_IDS[route.path],
            element: (
              <RouteGuard permission={route.meta.permission}>
                <Suspense fallback={<Spin style={{ display: 'block', margin: '80px auto' }} />}>
                  <Page />
                </Suspense>
              </RouteGuard>
            ),
          };
        }),
        ...flattenRoutes(ADMIN_ROUTES)
          .flatMap(({ parents }) => parents)
          .filter((p, i, all) => p.redirect && all.indexOf(p) === i)
          .map((p) => ({ path: p.path, element: <GroupRedirect path={p.path} /> })),
        { path: '*', element: <Navigate to="/404" replace /> },
      ],
    },
  ],
  { errorElement: <Rethrow /> },
);
