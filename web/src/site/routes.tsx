import { lazy, Suspense, type ComponentType } from 'react';
import { Navigate, useParams, useRoutes, type RouteObject } from 'react-router';
import { Spin } from 'antd';
import { guardIds } from '../common/idRoutes.tsx';
import { MainLayout } from './layouts/MainLayout.tsx';

function page(load: () => Promise<{ default: ComponentType }>) {
  const Component = lazy(load);
  return (
    <Suspense fallback={<Spin style={{ display: 'block', margin: '120px auto' }} />}>
      <Component />
    </Suspense>
  );
}

type TabName = 'IntroduceTab' | 'QuestionTab' | 'InformationTab' | 'GuideTab' | 'ToolsTab';
function tab(name: TabName) {
  return page(() => import('./pages/competition/tabs.tsx').then((m) => ({ default: m[name] })));
}

/** `/redirect/:path(.*)` sends the browser on to `/:path`, replacing the history entry. */
function RedirectHelper() {
  const params = useParams();
  return <Navigate to={`/${params['*'] ?? ''}${location.search}`} replace />;
}

const home = () => (location.href = '/');

/** antd's Result and its illustrations are only fetched when someone lands on an error page. */
function errorPage(code: 404 | 401) {
  return page(() => import('../common/ErrorPage.tsx').then((m) => ({ default: () => <m.ErrorPage code={code} onHome={home} /> })));
}

/** The site's routes; an id that is not digits (spec §2.1: `:brandId`, `:competitionId`… are digits) is the 404 page. */
export const siteRoutes: RouteObject[] = guardIds([
  { path: '/', element: <Navigate to="/competitionList" replace /> },
  { path: '/redirect/*', element: <RedirectHelper /> },
  { path: '/404', element: errorPage(404) },
  { path: '/401', element: errorPage(401) },
  { path: '/login', element: page(() => import('./pages/auth/LoginPage.tsx')) },
  { path: '/register', element: page(() => import('./pages/auth/RegisterPage.tsx')) },
  { path: '/logout', element: page(() => import('./pages/auth/LogoutPage.tsx')) },
  { path: '/forgot-password', element: page(() => import('./pages/auth/ForgotPasswordPage.tsx')) },
  { path: '/reset-password', element: page(() => import('./pages/auth/ResetPasswordPage.tsx')) },
  { path: '/verify-email', element: page(() => import('./pages/auth/VerifyEmailPage.tsx')) },
  { path: '/unsubscribe', element: page(() => import('./pages/auth/UnsubscribePage.tsx')) },
  {
    element: <MainLayout />,
    children: [
      { path: '/index', element: <Navigate to="/competitionList" replace /> },
      { path: '/competitionList', element: page(() => import('./pages/competition/CompetitionListPage.tsx')) },
      { path: '/competitionList/:brandId', element: page(() => import('./pages/competition/CompetitionListPage.tsx')) },
      {
        path: '/competition/:competitionId',
        element: page(() => import('./pages/competition/CompetitionLayout.tsx')),
        children: [
          { index: true, element: <Navigate to="introduce" replace /> },
          { path: 'introduce', element: tab('IntroduceTab') },
          { path: 'question', element: tab('QuestionTab') },
          { path: 'information', element: tab('InformationTab') },
          { path: 'guide', element: tab('GuideTab') },
          { path: 'tools', element: tab('ToolsTab') },
          { path: 'team', element: page(() => import('./pages/team/TeamTab.tsx')) },
          { path: 'team/:teamId', element: page(() => import('./pages/team/JoinPage.tsx').then((m) => ({ default: m.JoinTab }))) },
          { path: 'choice', element: page(() => import('./pages/question/ChoiceTab.tsx')) },
          { path: 'works', element: page(() => import('./pages/question/WorksTab.tsx')) },
          { path: 'test', element: page(() => import('./pages/question/TestTab.tsx')) },
          { path: 'grade', element: page(() => import('./pages/grade/GradeTab.tsx')) },
          { path: 'certificate', element: page(() => import('./pages/certificate/CertificateTab.tsx')) },
        ],
      },
      // 公示: a competition's award list, public (no login).
      { path: '/results/:competitionId', element: page(() => import('./pages/competition/ResultsPage.tsx')) },
      { path: '/message', element: page(() => import('./pages/message/MessagePage.tsx')) },
      { path: '/registration/:competitionId', element: page(() => import('./pages/team/RegistrationPage.tsx')) },
      { path: '/join/:competitionId/:teamId', element: page(() => import('./pages/team/JoinPage.tsx')) },
      { path: '/payment/:competitionId/:orderId', element: page(() => import('./pages/order/PaymentPage.tsx')) },
      // Where a certificate's QR code leads: public, for anyone checking a certificate.
      { path: '/certificate/verify', element: page(() => import('./pages/certificate/VerifyPage.tsx')) },
      { path: '/certificate/verify/:certNo', element: page(() => import('./pages/certificate/VerifyPage.tsx')) },
      {
        path: '/userCenter',
        element: page(() => import('./pages/userCenter/UserCenterLayout.tsx')),
        children: [
          { index: true, element: <Navigate to="/userCenter/myInfo" replace /> },
          { path: 'myInfo', element: page(() => import('./pages/userCenter/MyInfoPage.tsx')) },
          { path: 'myOrder', element: page(() => import('./pages/order/MyOrderPage.tsx')) },
          { path: 'myInvoice', element: page(() => import('./pages/invoice/MyInvoicePage.tsx')) },
          { path: 'invoiceTitle', element: page(() => import('./pages/invoice/InvoiceTitlePage.tsx')) },
          { path: 'myCertificate', element: page(() => import('./pages/certificate/MyCertificatePage.tsx')) },
          { path: 'accountSet', element: page(() => import('./pages/userCenter/AccountSetPage.tsx')) },
          { path: 'messages', element: page(() => import('./pages/userCenter/MessageSettingsPage.tsx')) },
          { path: 'realName', element: page(() => import('./pages/userCenter/RealNamePage.tsx')) },
          { path: 'partner', element: page(() => import('./pages/userCenter/PartnerPage.tsx')) },
          { path: 'school', element: page(() => import('./pages/userCenter/CoordinatorPage.tsx')) },
        ],
      },
    ],
  },
  { path: '*', element: <Navigate to="/404" replace /> },
]);

/**
 * Rendered inside a BrowserRouter: no route uses loaders, actions or the other data-router features, and leaving the
 * data router out of the bundle keeps the first screen ~16 kB gzip smaller (ARCHITECTURE §9).
 */
export function SiteRoutes() {
  return useRoutes(siteRoutes);
}
