/**
 * Every permission code of the platform: the menu codes of spec §6 and the action codes
 * (`<module>:<entity>:<action>`) that gate writes. Server and web read the same list.
 */

/** Front-end menu gates of the participant site's user dropdown (spec §6). */
export const SITE_CODES = {
  userCenter: 'bdrace:userCenter:menu',
  review: 'bdrace:review:menu',
  manager: 'bdrace:manager:menu',
  userManager: 'bdrace:userCenter:index',
} as const;

export interface PermissionGroup {
  /** The group's own menu code. */
  code: string;
  title: string;
  items: { code: string; title: string }[];
}

/** Back-office menu groups with their codes (spec §6), plus the system group for users and roles. */
export const ADMIN_MENU_GROUPS: PermissionGroup[] = [
  {
    code: 'bdrace:partner',
    title: '组织管理',
    items: [
      { code: 'competition:partner:menu', title: '申请管理' },
      { code: 'competition:organization:menu', title: '组织机构管理' },
    ],
  },
  {
    code: 'bdrace:competition',
    title: '竞赛管理',
    items: [
      { code: 'competition:type:menu', title: '竞赛类型' },
      { code: 'competition:brand:menu', title: '竞赛品牌' },
      { code: 'competition:brandRecommend:menu', title: '推荐品牌' },
      { code: 'competition:competition:menu', title: '竞赛管理' },
      { code: 'competition:competitionAudit:menu', title: '竞赛审核' },
    ],
  },
  {
    code: 'bdrace:register',
    title: '报名管理',
    items: [{ code: 'payment:register:menu', title: '报名管理' }],
  },
  {
    code: 'bdrace:financial',
    title: '财务管理',
    items: [
      { code: 'order:order:menu', title: '订单管理' },
      { code: 'invoice:invoice:menu', title: '发票管理' },
      { code: 'invoice:config:menu', title: '发票配置' },
    ],
  },
  {
    code: 'bdrace:review',
    title: '评审管理',
    items: [
      { code: 'review:rules:menu', title: '评审规则' },
      { code: 'review:expert:menu', title: '评审专家' },
      { code: 'review:assign:menu', title: '赛题评审' },
      { code: 'competition:question:menu', title: '赛题成绩' },
    ],
  },
  {
    code: 'bdrace:message',
    title: '消息管理',
    items: [{ code: 'message:notice:menu', title: '通知管理' }],
  },
  {
    code: 'bdrace:payment',
    title: '支付配置',
    items: [
      { code: 'payment:alipay:menu', title: '支付宝' },
      { code: 'payment:wechat:menu', title: '微信' },
      { code: 'payment:bank:menu', title: '工商银行' },
      { code: 'payment:ccbBank:menu', title: '建设银行' },
      { code: 'payment:custom:menu', title: '其他支付' },
    ],
  },
  {
    code: 'bdrace:system',
    title: '系统管理',
    items: [
      { code: 'system:user:menu', title: '用户管理' },
      { code: 'system:role:menu', title: '角色管理' },
      { code: 'system:client:menu', title: '客户端版本' },
    ],
  },
];

/** Action codes that gate writes; each module adds its own here. */
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
} as const;

export const ACTION_TITLES: Record<string, string> = {
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
};

export const ALL_PERMISSION_CODES: string[] = [
  ...Object.values(SITE_CODES),
  ...ADMIN_MENU_GROUPS.flatMap((g) => [g.code, ...g.items.map((i) => i.code)]),
  ...Object.values(ACTION_CODES),
];

/** The four seed roles of ARCHITECTURE §5. */
export const ROLE_CODES = {
  admin: 'admin',
  organiser: 'organiser',
  judge: 'judge',
  participant: 'participant',
} as const;
export type RoleCode = (typeof ROLE_CODES)[keyof typeof ROLE_CODES];

function groupCodes(...groupCodes: string[]): string[] {
  return ADMIN_MENU_GROUPS.filter((g) => groupCodes.includes(g.code)).flatMap((g) => [
    g.code,
    ...g.items.map((i) => i.code),
  ]);
}

export const ROLE_PRESETS: Record<RoleCode, { name: string; description: string; codes: string[] }> = {
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
      'bdrace:competition',
      'competition:competition:menu',
      ACTION_CODES.competitionEdit,
      ACTION_CODES.registerAudit,
      ACTION_CODES.orderEdit,
      ACTION_CODES.invoiceEdit,
      ACTION_CODES.reviewRulesEdit,
      ACTION_CODES.expertEdit,
      ACTION_CODES.assignEdit,
      ACTION_CODES.gradeEdit,
      ACTION_CODES.noticeEdit,
      ...groupCodes('bdrace:register', 'bdrace:financial', 'bdrace:review', 'bdrace:message'),
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
export const PERMISSION_CATALOGUE: { title: string; items: { code: string; title: string }[] }[] = [
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
  { title: '操作权限', items: Object.values(ACTION_CODES).map((code) => ({ code, title: ACTION_TITLES[code] ?? code })) },
];
