import { SCHOOL_KINDS, type SchoolOption } from '@contest/shared';
import { useQuery } from '@tanstack/react-query';
import { AutoComplete, Input, Select, Space } from 'antd';
import { useEffect, useState } from 'react';
import { schoolApi, schoolKeys } from '#src/api/schools.ts';

/** What a school field holds: a school of the platform's list (its id and name), or one written in (`schoolId` null). */
export interface SchoolValue {
  schoolId: number | null;
  organization: string | null;
}

const OTHER = -1;

/**
 * A school picked from the platform's list, searched by name, pinyin initials (清华大学: qhdx) or 学校标识码; 其他 lets
 * a school not in the list be written in. Controlled as a form field: `value` and `onChange` carry a SchoolValue.
 */
export function SchoolPicker({ value, onChange, id }: { value?: SchoolValue | null; onChange?: (v: SchoolValue) => void; id?: string }) {
  const [keyword, setKeyword] = useState('');
  const [debounced, setDebounced] = useState('');
  useEffect(() => {
    const t = setTimeout(() => setDebounced(keyword.trim()), 250);
    return () => clearTimeout(t);
  }, [keyword]);
  const { data, isFetching } = useQuery({ queryKey: schoolKeys.options(debounced), queryFn: () => schoolApi.options(debounced), staleTime: 60_000 });
  const writing = value?.schoolId === null && value.organization !== null;
  const current: SchoolOption[] = value?.schoolId ? [{ id: value.schoolId, name: value.organization ?? '', province: null, kind: 'other' }] : [];
  const options = [...current, ...(data ?? []).filter((s) => s.id !== value?.schoolId)].map((s) => ({
    value: s.id,
    label: s.name,
    title: s.province ? `${s.name}（${s.province}，${SCHOOL_KINDS[s.kind]}）` : s.name,
  }));
  return (
    <Space.Compact style={{ width: '100%' }}>
      <Select<number>
        id={id}
        showSearch
        allowClear
        filterOption={false}
        loading={isFetching}
        placeholder="输入学校名称或拼音首字母搜索"
        style={{ width: writing ? '40%' : '100%' }}
        value={writing ? OTHER : (value?.schoolId ?? undefined)}
        onSearch={setKeyword}
        notFoundContent={debounced ? '名单中没有找到，可选择“其他”手动填写' : '输入关键字搜索'}
        options={[...options, { value: OTHER, label: '其他（手动填写）' }]}
        onChange={(picked) => {
          if (picked === undefined) onChange?.({ schoolId: null, organization: null });
          else if (picked === OTHER) onChange?.({ schoolId: null, organization: '' });
          else onChange?.({ schoolId: picked, organization: options.find((o) => o.value === picked)?.label ?? null });
        }}
      />
      {writing && (
        <Input
          aria-label="学校名称"
          placeholder="请填写学校全称"
          maxLength={100}
          style={{ width: '60%' }}
          value={value?.organization ?? ''}
          onChange={(e) => onChange?.({ schoolId: null, organization: e.target.value })}
        />
      )}
    </Space.Compact>
  );
}

/**
 * A school's name as a text field (a registration form's 学校): typing offers the schools of the platform's list whose
 * name or pinyin initials match, and picking one writes its exact name; a school not in the list is simply written in,
 * unless the competition takes only the list's (`listOnly`).
 */
export function SchoolNameInput({
  value,
  onChange,
  id,
  listOnly,
}: {
  value?: string | null;
  onChange?: (v: string) => void;
  id?: string;
  /** The competition takes only the list's schools (the server checks the name). */
  listOnly?: boolean;
}) {
  const [debounced, setDebounced] = useState('');
  useEffect(() => {
    const t = setTimeout(() => setDebounced((value ?? '').trim()), 250);
    return () => clearTimeout(t);
  }, [value]);
  const { data } = useQuery({
    queryKey: schoolKeys.options(debounced),
    queryFn: () => schoolApi.options(debounced),
    enabled: debounced.length > 0,
    staleTime: 60_000,
  });
  return (
    <AutoComplete
      id={id}
      value={value ?? ''}
      onChange={(v) => onChange?.(v)}
      options={(data ?? []).map((s) => ({ value: s.name, label: s.province ? `${s.name}（${s.province}）` : s.name }))}
      placeholder={listOnly ? '输入学校名称或拼音首字母，从名单中选择（本竞赛只接受名单内的学校）' : '输入学校名称或拼音首字母，从名单中选择'}
      maxLength={100}
    />
  );
}
