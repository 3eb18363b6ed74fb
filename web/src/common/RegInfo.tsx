import { REG_FIELDS, isCustomField, type PresetField, type RegistrationInfo } from '@contest/shared';
import type { ReactNode } from 'react';
import { fileUrl } from './files.ts';

/** The form's fields shown where no form is known (a competition without a REG_SET field list). */
export const DEFAULT_SHOWN_FIELDS: PresetField[] = REG_FIELDS.filter((f) => ['idCardNo', 'tel', 'organization', 'region'].includes(f.name)).map((f) => ({
  ...f,
  description: null,
  otherParams: { required: false },
}));

/** One answer of a member's registration form as read: the option, the text, the file as a link, 男/女, 是/否. */
export function formValue(f: PresetField, info: RegistrationInfo): ReactNode {
  if (isCustomField(f.name)) {
    const v = info.extra?.[f.name];
    if (!v) return '';
    return f.type === 'file' ? (
      <a href={fileUrl(v)} target="_blank" rel="noopener noreferrer">
        查看文件
      </a>
    ) : (
      v
    );
  }
  switch (f.name) {
    case 'sex':
      return info.sex === 0 ? '男' : info.sex === 1 ? '女' : '';
    case 'atSchool':
      return info.atSchool === true ? '是' : info.atSchool === false ? '否' : '';
    case 'region':
      return [info.province, info.city].filter(Boolean).join(' ');
    default:
      return info[f.name] ?? '';
  }
}
