import {
  CUSTOM_TEXT_MAX,
  DEGREES,
  EMAIL_MESSAGE,
  isCustomField,
  isValidEmail,
  isValidPhone,
  validateIdCard,
  type PresetField,
  type RegistrationInfo,
  type UserInfo,
} from '@contest/shared';
import { REGIONS } from '@contest/shared/regions';
import { Cascader, Col, Form, Input, Radio, Row, Select, type FormInstance } from 'antd';
import type { Rule } from 'antd/es/form';
import { DocumentField } from '#src/common/DocumentUpload.tsx';
import { ruleFrom } from '#src/common/forms.ts';
import { SchoolNameInput } from '#src/common/SchoolPicker.tsx';

/** Form values of a registration form: the region is one cascader value. */
export type RegFormValues = Omit<RegistrationInfo, 'province' | 'city'> & { region?: string[] };

const REGION_OPTIONS = REGIONS.map((p) => ({ value: p.name, label: p.name, children: p.children.map((c) => ({ value: c.name, label: c.name })) }));

function rulesFor(f: PresetField): Rule[] {
  const required = f.otherParams.required;
  const rules: Rule[] = [];
  if (isCustomField(f.name)) {
    if (required)
      rules.push({
        required: true,
        whitespace: f.type === 'text',
        message: f.type === 'choice' ? `请选择${f.label}` : f.type === 'file' ? `请上传${f.label}` : `请填写${f.label}`,
      });
    if (f.type === 'text') rules.push({ max: CUSTOM_TEXT_MAX, message: `${f.label}不能超过${CUSTOM_TEXT_MAX}个字符` });
    return rules;
  }
  switch (f.name) {
    case 'idCardNo':
      // The spec's ID messages, including the one for an empty value, come from the shared validator.
      if (required)
        rules.push({
          validator: async (_, v) => {
            const m = validateIdCard(v);
            if (m) throw new Error(m);
          },
        });
      else rules.push(ruleFrom((v) => validateIdCard(v)));
      return rules;
    case 'tel':
      rules.push(ruleFrom((v) => (isValidPhone(v) ? null : '手机号格式不正确')));
      break;
    case 'email':
      rules.push(ruleFrom((v) => (isValidEmail(v) ? null : EMAIL_MESSAGE)));
      break;
    case 'sex':
    case 'atSchool':
    case 'region':
    case 'education':
      if (required)
        rules.push({
          required: true,
          message:
            f.name === 'sex' ? '请选择性别' : f.name === 'atSchool' ? '请选择是否在校' : f.name === 'education' ? `请选择${f.label}` : '请选择所在省份和城市',
        });
      return rules;
  }
  if (required) rules.unshift({ required: true, whitespace: true, message: `请填写${f.label}` });
  return rules;
}

/** The input of one of the organiser's own fields: a text, a choice among the options, or a file. */
function customInput(f: PresetField) {
  if (f.type === 'choice') {
    const options = (f.options ?? []).map((o) => ({ value: o, label: o }));
    // A few options are radio buttons in sight; a longer list is a select.
    return options.length <= 4 ? <Radio.Group options={options} /> : <Select options={options} placeholder={`请选择${f.label}`} allowClear />;
  }
  if (f.type === 'file') return <DocumentField purpose="attachment" label={f.label} />;
  return <Input.TextArea maxLength={CUSTOM_TEXT_MAX} autoSize={{ minRows: 1, maxRows: 6 }} showCount />;
}

/** The REG_SET fields the organiser chose, in their order, each with its shared validator. */
export function RegFormFields({ fields, prefix = [] }: { fields: readonly PresetField[]; prefix?: (string | number)[] }) {
  return (
    <Row gutter={16}>
      {fields.map((f) => (
        <Col xs={24} md={isCustomField(f.name) && f.type === 'text' ? 24 : 12} key={f.name}>
          <Form.Item
            name={isCustomField(f.name) ? [...prefix, 'extra', f.name] : [...prefix, f.name]}
            label={f.label}
            rules={rulesFor(f)}
            extra={f.description ?? undefined}
            required={f.otherParams.required}
          >
            {isCustomField(f.name) ? (
              customInput(f)
            ) : f.name === 'sex' ? (
              <Radio.Group
                options={[
                  { value: 0, label: '男' },
                  { value: 1, label: '女' },
                ]}
              />
            ) : f.name === 'atSchool' ? (
              <Radio.Group
                options={[
                  { value: true, label: '是' },
                  { value: false, label: '否' },
                ]}
              />
            ) : f.name === 'region' ? (
              <Cascader options={REGION_OPTIONS} placeholder="请选择省份 / 城市" showSearch />
            ) : f.name === 'education' ? (
              <Select options={DEGREES.map((d) => ({ value: d, label: d }))} placeholder={`请选择${f.label}`} allowClear />
            ) : f.name === 'organization' ? (
              <SchoolNameInput listOnly={f.otherParams.schoolList} />
            ) : (
              <Input maxLength={f.name === 'address' ? 200 : 100} placeholder={f.name === 'idCardNo' ? '18位居民身份证号，或港澳台证件号' : undefined} />
            )}
          </Form.Item>
        </Col>
      ))}
    </Row>
  );
}

/** Turns form values into the request's `info` (province and city apart). */
export function toInfo(values: RegFormValues | undefined): RegistrationInfo {
  const { region, ...rest } = values ?? {};
  return { ...rest, ...(region ? { province: region[0] ?? null, city: region[1] ?? null } : {}) };
}

/** A member's saved form, or the profile, as form values; a masked ID number is never put back in the form. */
export function fromInfo(info: RegistrationInfo): RegFormValues {
  const { province, city, idCardNo, ...rest } = info;
  return { ...rest, idCardNo: idCardNo?.includes('*') ? undefined : idCardNo, region: province && city ? [province, city] : undefined };
}

export function fromProfile(user: UserInfo | null | undefined): RegFormValues {
  if (!user) return {};
  return fromInfo({
    userName: user.userName,
    tel: user.phone,
    email: user.email,
    sex: user.sex,
    atSchool: user.atSchool,
    organization: user.organization,
    department: user.department,
    speciality: user.speciality,
    grade: user.grade,
    province: user.province,
    city: user.city,
    address: user.address,
  });
}

export type { FormInstance };
