/**
 * Every permission code of the platform: the menu codes of spec §6 and the action codes
 * (`<module>:<entity>:<action>`) that gate writes. Server and web read the same tables and name a code
 * only through them, never as a string literal, so a misspelt code does not compile.
 */

/** Front-end menu gates of the participant site's user dropdown (spec §6). */
export const SITE_CODES = {
  userCenter: 'bdrace:userCenter:menu',
  review: 'bdrace:review:menu',
  manager: 'bdrace:manager:menu',
  userManager: 'bdrace:userCenter:index',
} as const satisfies Record<string, `bdrace:${string}:${'menu' | 'index'}`>;

/** Back-office menu groups (spec §6), plus the system group for users, roles and client versions. */
export const MENU_GROUP_CODES = {
  partner: 'bdrace:partner',
  competition: 'bdrace:competition',
  register: 'bdrace:register',
  financial: 'bdrace:financial',
  review: 'bdrace:review',
  message: 'bdrace:message',
  payment: 'bdrace:payment',
  system: 'bdrace:system',
} as const satisfies Record<string, `bdrace:${string}`>;

/**
 * Back-office menu codes (spec §6), each opening one page; services also read some of them as "may manage this
 * area". Named ADMIN_MENU_CODES because MENU_CODES are the competition's own menus (enums.ts).
 */
export const ADMIN_MENU_CODES = {
  partner: 'competition:partner:menu',
  organization: 'competition:organization:menu',
  type: 'competition:type:menu',
  brand: 'competition:brand:menu',
  brandRecommend: 'competition:brandRecommend:menu',
  competition: 'competition:competition:menu',
  competitionAudit: 'competition:competitionAudit:menu',
  register: 'payment:register:menu',
  order: 'order:order:menu',
  invoice: 'invoice:invoice:menu',
  invoiceConfig: 'invoice:config:menu',
  reviewRules: 'review:rules:menu',
  reviewExpert: 'review:expert:menu',
  reviewAssign: 'review:assign:menu',
  /** 赛题成绩: grades, awards and certificates of a question. */
  question: 'competition:question:menu',
  notice: 'message:notice:menu',
  alipay: 'payment:alipay:menu',
  wechat: 'payment:wechat:menu',
  bank: 'payment:bank:menu',
  ccbBank: 'payment:ccbBank:menu',
  custom: 'payment:custom:menu',
  user: 'system:user:menu',
  role: 'system:role:menu',
  client: 'system:client:menu',
  /** 消息服务 (issue 35): the SMS provider, its test send and simulator. */
  messaging: 'system:message:menu',
  /** 实名审核 (issue 35): the review queue of documents the platform checks by hand. */
  realName: 'system:realname:menu',
  /** 学校名单 (issue 36): the platform's list of schools. */
  school: 'system:school:menu',
} as const satisfies Record<string, `${string}:${string}:menu`>;

/** Action codes (`<module>:<entity>:<action>`) that gate writes; each module adds its own here. */
export const ACTION_CODES = {
  userEdit: 'system:user:edit',
  roleEdit: 'system:role:edit',
  partnerAudit: 'competition:partner:audit',
  organizationEdit: 'competition:organization:edit',
  typeEdit: 'competition:type:edit',
  brandEdit: 'competition:brand:edit',
  competitionEdit: 'competition:competition:edit',
  competitionAudit: 'competition:competition:audit',
  registerAudit: 'payment:register:audit',
  orderEdit: 'order:order:edit',
  paymentEdit: 'payment:config:edit',
  invoiceEdit: 'invoice:invoice:edit',
  invoiceConfigEdit: 'invoice:config:edit',
  questionReview: 'competition:question:review',
  reviewRulesEdit: 'review:rules:edit',
  expertEdit: 'review:expert:edit',
  assignEdit: 'review:assign:edit',
  gradeEdit: 'competition:grade:edit',
  noticeEdit: 'message:notice:edit',
  clientEdit: 'system:client:edit',
  messagingEdit: 'system:message:edit',
  realNameAudit: 'system:realname:audit',
  schoolEdit: 'system:school:edit',
} as const satisfies Record<string, `${string}:${string}:${'edit' | 'audit' | 'review'}`>;

/**
 * What makes a caller the platform (issue 34: defined once, here): approving competitions. The platform sees and acts for
 * every organisation; the server's policy (isPlatform) and the caller's user info (`platform`) both read this code.
 */
export const PLATFORM_PERMISSION = ACTION_CODES.competitionAudit;

export type SiteCode = (typeof SITE_CODES)[keyof typeof SITE_CODES];
export type MenuGroupCode = (typeof MENU_GROUP_CODES)[keyof typeof MENU_GROUP_CODES];
export type AdminMenuCode = (typeof ADMIN_MENU_CODES)[keyof typeof ADMIN_MENU_CODES];
export type ActionCode = (typeof ACTION_CODES)[keyof typeof ACTION_CODES];
/** Every permission code of the platform. */
export type PermissionCode = SiteCode | MenuGroupCode | AdminMenuCode | ActionCode;

export interface PermissionGroup {
  /** The group's own menu code. */
  code: MenuGroupCode;
  title: string;
  items: { code: AdminMenuCode; title: string }[];
}

const M = ADMIN_MENU_CODES;

/** Back-office menu groups with their codes, in menu order: what the role editor lists. */
export const ADMIN_MENU_GROUPS: PermissionGroup[] = [
  {
    code: MENU_GROUP_CODES.partner,
    title: '组织管理',
    items: [
      { code: M.partner, title: '申请管理' },
      { code: M.organization, title: '组织机构管理' },
    ],
  },
  {
    code: MENU_GROUP_CODES.competition,
    title: '竞赛管理',
    items: [
      { code: M.type, title: '竞赛类型' },
      { code: M.brand, title: '竞赛品牌' },
      { code: M.brandRecommend, title: '推荐品牌' },
      { code: M.competition, title: '竞赛管理' },
      { code: M.competitionAudit, title: '竞赛审核' },
    ],
  },
  {
    code: MENU_GROUP_CODES.register,
    title: '报名管理',
    items: [{ code: M.register, title: '报名管理' }],
  },
  {
    code: MENU_GROUP_CODES.financial,
    title: '财务管理',
    items: [
      { code: M.order, title: '订单管理' },
      { code: M.invoice, title: '发票管理' },
      { code: M.invoiceConfig, title: '发票配置' },
    ],
  },
  {
    code: MENU_GROUP_CODES.review,
    title: '评审管理',
    items: [
      { code: M.reviewRules, title: '评审规则' },
      { code: M.reviewExpert, title: '评审专家' },
      { code: M.reviewAssign, title: '赛题评审' },
      { code: M.question, title: '赛题成绩' },
    ],
  },
  {
    code: MENU_GROUP_CODES.message,
    title: '消息管理',
    items: [{ code: M.notice, title: '通知管理' }],
  },
  {
    code: MENU_GROUP_CODES.payment,
    title: '支付配置',
    items: [
      { code: M.alipay, title: '支付宝' },
      { code: M.wechat, title: '微信' },
      { code: M.bank, title: '工商银行' },
      { code: M.ccbBank, title: '建设银行' },
      { code: M.custom, title: '其他支付' },
    ],
  },
  {
    code: MENU_GROUP_CODES.system,
    title: '系统管理',
    items: [
      { code: M.user, title: '用户管理' },
      { code: M.role, title: '角色管理' },
      { code: M.client, title: '客户端版本' },
      { code: M.messaging, title: '消息服务' },
      { code: M.realName, title: '实名审核' },
      { code: M.school, title: '学校名单' },
    ],
  },
];

export const ACTION_TITLES: Record<ActionCode, string> = {
  [ACTION_CODES.userEdit]: '修改用户（停用、重置密码、分配角色与组织）',
  [ACTION_CODES.roleEdit]: '修改角色权限',
  [ACTION_CODES.partnerAudit]: '审核组织方申请',
  [ACTION_CODES.organizationEdit]: '修改组织机构',
  [ACTION_CODES.typeEdit]: '修改竞赛类型',
  [ACTION_CODES.brandEdit]: '修改竞赛品牌与品牌导航',
  [ACTION_CODES.competitionEdit]: '创建、修改、提交与上下线本组织的竞赛',
  [ACTION_CODES.competitionAudit]: '审核竞赛',
  [ACTION_CODES.registerAudit]: '审核本组织竞赛的报名',
  [ACTION_CODES.orderEdit]: '确认收款、集体缴费与退款',
  [ACTION_CODES.paymentEdit]: '修改支付配置',
  [ACTION_CODES.invoiceEdit]: '开具或驳回本组织竞赛的发票',
  [ACTION_CODES.invoiceConfigEdit]: '修改发票配置',
  [ACTION_CODES.questionReview]: '审核赛题（审核后才公开）',
  [ACTION_CODES.reviewRulesEdit]: '修改本组织赛题的评审规则',
  [ACTION_CODES.expertEdit]: '维护评审专家库',
  [ACTION_CODES.assignEdit]: '设置赛题评审专家、分配与重开评分',
  [ACTION_CODES.gradeEdit]: '计算与确认成绩、答复申诉、评奖与生成证书',
  [ACTION_CODES.noticeEdit]: '编写、发布与删除本组织竞赛的通知',
  [ACTION_CODES.clientEdit]: '发布桌面客户端的新版本',
  [ACTION_CODES.messagingEdit]: '修改短信服务商配置与发送测试短信',
  [ACTION_CODES.realNameAudit]: '查看证件并审核人工实名认证',
  [ACTION_CODES.schoolEdit]: '导入与修改学校名单',
};

export const ALL_PERMISSION_CODES: readonly PermissionCode[] = [
  ...Object.values(SITE_CODES),
  ...ADMIN_MENU_GROUPS.flatMap((g) => [g.code, ...g.items.map((i) => i.code)]),
  ...Object.values(ACTION_CODES),
];

const CODE_SET: ReadonlySet<string> = new Set(ALL_PERMISSION_CODES);
/** Whether a string from outside (a request, a database row) is one of the platform's codes. */
export function isPermissionCode(code: string): code is PermissionCode {
  return CODE_SET.has(code);
}

/** The four seed roles of ARCHITECTURE §5. */
export const ROLE_CODES = {
  admin: 'admin',
  organiser: 'organiser',
  judge: 'judge',
  participant: 'participant',
} as const;
export type RoleCode = (typeof ROLE_CODES)[keyof typeof ROLE_CODES];

function groupCodes(...groupCodes: MenuGroupCode[]): PermissionCode[] {
  return ADMIN_MENU_GROUPS.filter((g) => groupCodes.includes(g.code)).flatMap((g) => [g.code, ...g.items.map((i) => i.code)]);
}

export const ROLE_PRESETS: Record<RoleCode, { name: string; description: string; codes: readonly PermissionCode[] }> = {
  admin: {
    name: '平台管理员',
    description: '拥有全部权限',
    codes: ALL_PERMISSION_CODES,
  },
  organiser: {
    name: '组织方',
    description: '管理本组织的竞赛、报名、财务、评审与消息',
    // Types, brands and the audit of competitions belong to the platform; an organiser runs its own competitions.
    codes: [
      SITE_CODES.userCenter,
      SITE_CODES.manager,
      MENU_GROUP_CODES.competition,
      ADMIN_MENU_CODES.competition,
      ACTION_CODES.competitionEdit,
      ACTION_CODES.registerAudit,
      ACTION_CODES.orderEdit,
      ACTION_CODES.invoiceEdit,
      ACTION_CODES.reviewRulesEdit,
      ACTION_CODES.expertEdit,
      ACTION_CODES.assignEdit,
      ACTION_CODES.gradeEdit,
      ACTION_CODES.noticeEdit,
      ...groupCodes(MENU_GROUP_CODES.register, MENU_GROUP_CODES.financial, MENU_GROUP_CODES.review, MENU_GROUP_CODES.message),
    ],
  },
  judge: {
    name: '评审专家',
    description: '在评审中心评审分配的作品',
    codes: [SITE_CODES.userCenter, SITE_CODES.review],
  },
  participant: {
    name: '参赛者',
    description: '报名参赛、提交作品、查看成绩',
    codes: [SITE_CODES.userCenter],
  },
};

/** Every code with a title, grouped as the menus they gate: what a role editor shows. */
export const PERMISSION_CATALOGUE: { title: string; items: { code: PermissionCode; title: string }[] }[] = [
  {
    title: '前台入口',
    items: [
      { code: SITE_CODES.userCenter, title: '个人中心' },
      { code: SITE_CODES.review, title: '评审中心' },
      { code: SITE_CODES.manager, title: '管理后台' },
      { code: SITE_CODES.userManager, title: '用户中心' },
    ],
  },
  ...ADMIN_MENU_GROUPS.map((g) => ({ title: g.title, items: [{ code: g.code, title: `${g.title}（菜单组）` }, ...g.items] })),
  { title: '操作权限', items: Object.values(ACTION_CODES).map((code) => ({ code, title: ACTION_TITLES[code] })) },
];
