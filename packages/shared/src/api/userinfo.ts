import { z } from 'zod';
import { emailField, phoneField } from './auth.ts';

/** The current user's fields (spec §3 "Current user info"), plus account fields. */
export interface UserInfo {
  id: number;
  userId: number;
  username: string;
  faceImg: string | null;
  area: string | null;
  userName: string | null;
  birthday: string | null;
  sex: 0 | 1 | null;
  education: string | null;
  admissionDate: string | null;
  atSchool: boolean | null;
  organization: string | null;
  department: string | null;
  speciality: string | null;
  grade: string | null;
  studentIdCard: string | null;
  province: string | null;
  city: string | null;
  address: string | null;
  company: string | null;
  position: string | null;
  phone: string | null;
  email: string | null;
  orgId: number | null;
  orgName: string | null;
  roles: { id: number; code: string; name: string }[];
}

const text = (max: number) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? (v.trim() === '' ? null : v.trim()) : v),
    z.string().max(max, `不能超过${max}个字符`).nullable().optional(),
  );
const date = z.preprocess(
  (v) => (v === '' ? null : v),
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, '日期格式须为YYYY-MM-DD')
    .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)), '日期不存在')
    .nullable()
    .optional(),
);

/** What a user may change of their own profile (`PUT /api/team/userinfo/`). */
export const userInfoUpdateBody = z.strictObject({
  faceImg: text(500),
  area: text(50),
  userName: text(50),
  birthday: date,
  sex: z.union([z.literal(0), z.literal(1)], { error: '性别须为0（男）或1（女）' }).nullable().optional(),
  education: text(50),
  admissionDate: date,
  atSchool: z.boolean({ error: '是否在校须为是或否' }).nullable().optional(),
  organization: text(100),
  department: text(100),
  speciality: text(100),
  grade: text(50),
  studentIdCard: text(50),
  province: text(50),
  city: text(50),
  address: text(200),
  company: text(100),
  position: text(100),
  phone: phoneField.nullable(),
  email: emailField.nullable(),
});
export type UserInfoUpdateBody = z.infer<typeof userInfoUpdateBody>;
