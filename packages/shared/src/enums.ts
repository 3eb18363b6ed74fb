/** Account status: 1 active, 0 disabled. */
export const USER_STATUS = { disabled: 0, active: 1 } as const;

/** Competition status filter (spec §4): all (empty), 2 open for registration, 3 in progress, 4 ended. */
export const COMPETITION_STATUS_FILTER = { open: 2, inProgress: 3, ended: 4 } as const;

/** Public status (spec §4 filter): 1 not yet open, 2 open for registration, 3 in progress, 4 ended. */
export const COMPETITION_STATUS_TEXT: Record<number, string> = { 1: '即将开始', 2: '报名中', 3: '进行中', 4: '已结束' };

/** Payment methods (spec §3). */
export const PAYMENT_METHODS = { wechat: 1, alipay: 2, collective: 3, icbc: 4, ccb: 5, other: 6 } as const;

/** Notice kinds (spec §3): 0 system notice, 1 personal message. */
export const NOTICE_KINDS = { system: 0, personal: 1 } as const;

/** Menu preset codes (spec §3). */
export const MENU_CODES = [
  'REG_SET',
  'QUES_AND_DATA',
  'COMP_INFO',
  'BEFORE_GUIDE',
  'TRAINING_PLATFORM',
  'CHOICE_SET',
  'SUBMIT_WORKS',
  'SUBMIT_TEST',
  'GRADE_SET',
  'CERTIFICATE_SET',
] as const;
export type MenuCode = (typeof MENU_CODES)[number];
