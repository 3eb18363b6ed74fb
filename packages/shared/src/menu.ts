/**
 * The back-office route list (spec §2.3): one definition builds the sidebar, breadcrumb, tag tabs and
 * route guard in the web, and the server's accessible route list. Groups of spec §6 appear here as
 * their pages are built; a group without pages is not shown.
 */
import { ADMIN_MENU_CODES as M, MENU_GROUP_CODES as G, type PermissionCode } from './permissions.ts';

export interface AdminRoute {
  path: string;
  name: string;
  /** Page key the web maps to a lazily loaded component. */
  component?: string;
  redirect?: string;
  hidden?: boolean;
  alwaysShow?: boolean;
  meta: {
    title: string;
    icon?: string;
    /** The code that opens the page; with a list, any one of them does. */
    permission?: PermissionCode | PermissionCode[];
    affix?: boolean;
    /** For a hidden page: the menu entry to highlight while it is shown (the list it was opened from). */
    activeMenu?: string;
  };
  children?: AdminRoute[];
}

export const ADMIN_ROUTES: AdminRoute[] = [
  {
    path: '/index',
    name: 'Index',
    component: 'home',
    meta: { title: '首页', icon: 'home', affix: true },
  },
  {
    path: '/partner',
    name: 'Partner',
    redirect: '/partner/apply',
    alwaysShow: true,
    meta: { title: '组织管理', icon: 'apartment', permission: G.partner },
    children: [
      {
        path: '/partner/apply',
        name: 'PartnerApply',
        component: 'partner/apply',
        meta: { title: '申请管理', icon: 'solution', permission: M.partner },
      },
      {
        path: '/partner/organization',
        name: 'PartnerOrganization',
        component: 'partner/organization',
        meta: { title: '组织机构管理', icon: 'bank', permission: M.organization },
      },
    ],
  },
  {
    path: '/competition',
    name: 'Competition',
    redirect: '/competition/type',
    alwaysShow: true,
    meta: { title: '竞赛管理', icon: 'trophy', permission: G.competition },
    children: [
      {
        path: '/competition/type',
        name: 'CompetitionType',
        component: 'competition/type',
        meta: { title: '竞赛类型', icon: 'tags', permission: M.type },
      },
      {
        path: '/competition/brand',
        name: 'CompetitionBrand',
        component: 'competition/brand',
        meta: { title: '竞赛品牌', icon: 'flag', permission: M.brand },
      },
      {
        path: '/competition/brand/nav/:brandId',
        name: 'CompetitionBrandNav',
        component: 'competition/brandNav',
        hidden: true,
        meta: { title: '品牌导航', permission: M.brand, activeMenu: '/competition/brand' },
      },
      {
        path: '/competition/brandRecommend',
        name: 'CompetitionBrandRecommend',
        component: 'competition/brandRecommend',
        meta: { title: '推荐品牌', icon: 'like', permission: M.brandRecommend },
      },
      {
        path: '/competition/manager',
        name: 'CompetitionManager',
        component: 'competition/manager',
        meta: { title: '竞赛管理', icon: 'profile', permission: M.competition },
      },
      {
        path: '/competition/edit/:competitionId',
        name: 'CompetitionEdit',
        component: 'competition/edit',
        hidden: true,
        meta: { title: '竞赛编辑', permission: M.competition, activeMenu: '/competition/manager' },
      },
      {
        path: '/competition/view/:competitionId',
        name: 'CompetitionView',
        component: 'competition/view',
        hidden: true,
        // Reached from the manager list and from the audit list: either menu opens it.
        meta: {
          title: '竞赛查看',
          permission: [M.competition, M.competitionAudit],
          activeMenu: '/competition/manager',
        },
      },
      {
        path: '/question/work/:questionId',
        name: 'QuestionWork',
        component: 'question/work',
        hidden: true,
        meta: { title: '作品管理', permission: M.competition, activeMenu: '/competition/manager' },
      },
      {
        // Issue 37: 查重 of a question's written works: the run, thresholds, exclusions, the ranked list and decisions.
        path: '/question/similarity/:questionId',
        name: 'QuestionSimilarity',
        component: 'question/similarity',
        hidden: true,
        meta: { title: '作品查重', permission: M.competition, activeMenu: '/competition/manager' },
      },
      {
        // Issue 33: a question's boards and every team's test submissions, with 取消成绩 / 恢复.
        path: '/question/test/:questionId',
        name: 'QuestionTest',
        component: 'question/test',
        hidden: true,
        meta: { title: '测试提交', permission: M.competition, activeMenu: '/competition/manager' },
      },
      {
        // Spec §2.3: a question's works, the question given in the query (`?questionId=`); the competition's question
        // list opens it.
        path: '/question/questionWorks',
        name: 'QuestionWorks',
        component: 'question/questionWorks',
        hidden: true,
        meta: { title: '赛题作品', permission: M.competition, activeMenu: '/competition/manager' },
      },
      {
        path: '/competition/audit',
        name: 'CompetitionAudit',
        component: 'competition/audit',
        meta: { title: '竞赛审核', icon: 'audit', permission: M.competitionAudit },
      },
    ],
  },
  {
    path: '/register',
    name: 'Register',
    redirect: '/register/manager',
    alwaysShow: true,
    meta: { title: '报名管理', icon: 'form', permission: G.register },
    children: [
      {
        path: '/register/manager',
        name: 'RegisterManager',
        component: 'register/manager',
        meta: { title: '报名管理', icon: 'team', permission: M.register },
      },
    ],
  },
  {
    path: '/financial',
    name: 'Financial',
    redirect: '/financial/order',
    alwaysShow: true,
    meta: { title: '财务管理', icon: 'accountBook', permission: G.financial },
    children: [
      {
        path: '/financial/order',
        name: 'FinancialOrder',
        component: 'financial/order',
        meta: { title: '订单管理', icon: 'shopping', permission: M.order },
      },
      {
        path: '/financial/invoice',
        name: 'FinancialInvoice',
        component: 'financial/invoice',
        meta: { title: '发票管理', icon: 'fileText', permission: M.invoice },
      },
      {
        path: '/financial/invoiceConfig',
        name: 'FinancialInvoiceConfig',
        component: 'financial/invoiceConfig',
        meta: { title: '发票配置', icon: 'setting', permission: M.invoiceConfig },
      },
    ],
  },
  {
    path: '/review',
    name: 'Review',
    redirect: '/review/rules',
    alwaysShow: true,
    meta: { title: '评审管理', icon: 'audit', permission: G.review },
    children: [
      { path: '/review/rules', name: 'ReviewRules', component: 'review/rules', meta: { title: '评审规则', icon: 'profile', permission: M.reviewRules } },
      { path: '/review/expert', name: 'ReviewExpert', component: 'review/expert', meta: { title: '评审专家', icon: 'user', permission: M.reviewExpert } },
      { path: '/review/assign', name: 'ReviewAssign', component: 'review/assign', meta: { title: '赛题评审', icon: 'solution', permission: M.reviewAssign } },
      { path: '/review/grade', name: 'ReviewGrade', component: 'review/grade', meta: { title: '赛题成绩', icon: 'trophy', permission: M.question } },
      {
        path: '/question/judge/:questionId',
        name: 'QuestionJudge',
        component: 'question/judge',
        hidden: true,
        meta: { title: '评审专家与分配', permission: M.reviewAssign, activeMenu: '/review/assign' },
      },
      {
        path: '/question/grade/:questionId',
        name: 'QuestionGrade',
        component: 'question/grade',
        hidden: true,
        meta: { title: '赛题成绩', permission: M.question, activeMenu: '/review/grade' },
      },
      {
        path: '/question/awards/:questionId',
        name: 'QuestionAwards',
        component: 'question/awards',
        hidden: true,
        meta: { title: '获奖管理', permission: M.question, activeMenu: '/review/grade' },
      },
      {
        path: '/question/certificate/:questionId',
        name: 'QuestionCertificate',
        component: 'question/certificate',
        hidden: true,
        meta: { title: '证书管理', permission: M.question, activeMenu: '/review/grade' },
      },
    ],
  },
  {
    path: '/message',
    name: 'Message',
    redirect: '/message/notice',
    alwaysShow: true,
    meta: { title: '消息管理', icon: 'notification', permission: G.message },
    children: [
      { path: '/message/notice', name: 'MessageNotice', component: 'message/notice', meta: { title: '通知管理', icon: 'sound', permission: M.notice } },
    ],
  },
  {
    path: '/payment',
    name: 'Payment',
    redirect: '/payment/alipay',
    alwaysShow: true,
    meta: { title: '支付配置', icon: 'wallet', permission: G.payment },
    children: [
      { path: '/payment/alipay', name: 'PaymentAlipay', component: 'payment/alipay', meta: { title: '支付宝', icon: 'alipay', permission: M.alipay } },
      { path: '/payment/wechat', name: 'PaymentWechat', component: 'payment/wechat', meta: { title: '微信', icon: 'wechat', permission: M.wechat } },
      { path: '/payment/bank', name: 'PaymentBank', component: 'payment/bank', meta: { title: '工商银行', icon: 'bank', permission: M.bank } },
      { path: '/payment/ccbBank', name: 'PaymentCcbBank', component: 'payment/ccbBank', meta: { title: '建设银行', icon: 'bank', permission: M.ccbBank } },
      { path: '/payment/custom', name: 'PaymentCustom', component: 'payment/custom', meta: { title: '其他支付', icon: 'wallet', permission: M.custom } },
    ],
  },
  {
    path: '/system',
    name: 'System',
    redirect: '/system/user',
    alwaysShow: true,
    meta: { title: '系统管理', icon: 'setting', permission: G.system },
    children: [
      {
        path: '/system/user',
        name: 'SystemUser',
        component: 'system/user',
        meta: { title: '用户管理', icon: 'user', permission: M.user },
      },
      {
        path: '/system/role',
        name: 'SystemRole',
        component: 'system/role',
        meta: { title: '角色管理', icon: 'safety', permission: M.role },
      },
      {
        path: '/system/client',
        name: 'SystemClient',
        component: 'system/client',
        meta: { title: '客户端版本', icon: 'desktop', permission: M.client },
      },
      {
        path: '/system/message',
        name: 'SystemMessage',
        component: 'system/message',
        meta: { title: '消息服务', icon: 'message', permission: M.messaging },
      },
      {
        path: '/system/realname',
        name: 'SystemRealName',
        component: 'system/realname',
        meta: { title: '实名审核', icon: 'idcard', permission: M.realName },
      },
      {
        path: '/system/school',
        name: 'SystemSchool',
        component: 'system/school',
        meta: { title: '学校名单', icon: 'bank', permission: M.school },
      },
    ],
  },
];

/** Whether a holder of `codes` may open a route gated by `permission`. */
export function routeAllowed(permission: AdminRoute['meta']['permission'], codes: readonly string[]): boolean {
  if (!permission) return true;
  return typeof permission === 'string' ? codes.includes(permission) : permission.some((code) => codes.includes(code));
}

/** The routes a holder of `codes` may open; a group with no visible child is dropped. */
export function accessibleRoutes(routes: AdminRoute[], codes: readonly string[]): AdminRoute[] {
  const out: AdminRoute[] = [];
  for (const route of routes) {
    if (!routeAllowed(route.meta.permission, codes)) continue;
    if (route.children) {
      const children = accessibleRoutes(route.children, codes);
      // Hidden pages are opened from a visible one; without any visible page the group has no entry point.
      const first = children.find((c) => !c.hidden);
      if (!first) continue;
      out.push({ ...route, children, redirect: first.path });
    } else {
      out.push(route);
    }
  }
  return out;
}

/** Flattened leaf routes with their parents, for breadcrumbs and the route guard. */
export function flattenRoutes(routes: AdminRoute[], parents: AdminRoute[] = []): { route: AdminRoute; parents: AdminRoute[] }[] {
  return routes.flatMap((route) => (route.children ? flattenRoutes(route.children, [...parents, route]) : [{ route, parents }]));
}
