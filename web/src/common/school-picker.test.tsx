// @vitest-environment happy-dom
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderPage, useFakeApi } from '../test/fakeApi.tsx';
import { SchoolPicker, type SchoolValue } from './SchoolPicker.tsx';

const api = useFakeApi();
const PKU = { id: 3, name: '北京大学', province: '北京市', kind: 'undergraduate' };

function Field({ initial, seen }: { initial: SchoolValue; seen: SchoolValue[] }) {
  const [value, setValue] = useState<SchoolValue>(initial);
  return (
    <SchoolPicker
      value={value}
      onChange={(v) => {
        seen.push(v);
        setValue(v);
      }}
    />
  );
}

describe('the school picker', () => {
  it('finds a school of the list by its pinyin initials, and lets one not listed be written in', async () => {
    api.answers = { '/api/school/options?keyword=bjdx': [PKU], 'GET /api/school/options': [] };
    const seen: SchoolValue[] = [];
    renderPage(<Field initial={{ schoolId: null, organization: null }} seen={seen} />);
    const box = screen.getByRole('combobox');
    fireEvent.mouseDown(box);
    fireEvent.change(box, { target: { value: 'bjdx' } });
    const option = await screen.findByTitle('北京大学（北京市，本科）', {}, { timeout: 3000 });
    fireEvent.click(option);
    expect(seen.at(-1)).toEqual({ schoolId: 3, organization: '北京大学' });
    await waitFor(() => expect(api.requests.some((r) => r.url.includes('keyword=bjdx'))).toBe(true));

    fireEvent.mouseDown(screen.getByRole('combobox'));
    fireEvent.click(await screen.findByText('其他（手动填写）'));
    expect(seen.at(-1)).toEqual({ schoolId: null, organization: '' });
    fireEvent.change(await screen.findByLabelText('学校名称'), { target: { value: '社区学习中心' } });
    expect(seen.at(-1)).toEqual({ schoolId: null, organization: '社区学习中心' });
  });
});
