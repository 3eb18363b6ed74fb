// @vitest-environment happy-dom
import { ACTION_CODES, type Organisation, type Page } from '@contest/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Input, Table, type TablePaginationConfig } from 'antd';
import { describe, expect, it } from 'vitest';
import { organisationApi, organisationKeys } from '../api/orgs.ts';
import type { KeywordParams } from '../api/catalogue.ts';
import { renderPage, useFakeApi } from '../test/fakeApi.tsx';
import { SelectionBar } from './components/SelectionBar.tsx';
import { useListState, usePagedList } from '../common/usePagedList.ts';
import OrganizationPage from './pages/partner/OrganizationPage.tsx';

const api = useFakeApi();

const org = (id: number): Organisation =>
  ({
    id,
    name: `机构${id}`,
    kind: 'school',
    contactName: null,
    contactPhone: null,
    contactEmail: null,
    memberNum: 0,
    competitionNum: 0,
    createdAt: '2026-05-01T02:00:00.000Z',
  }) as Organisation;
const page = (ids: number[], p = 1, limit = 20, total = 45): Page<Organisation> => ({ list: ids.map(org), total, page: p, limit });
const URL = '/api/competition/organization/page';

/** A list as the back office builds one: the hook, a search box, the selection bar and the table. */
function Harness() {
  const list = usePagedList(useListState<KeywordParams>(), {
    queryKey: organisationKeys.list,
    queryFn: organisationApi.list,
    emptyText: '暂无机构',
    selectable: true,
  });
  return (
    <>
      <Input.Search placeholder="机构名称" onSearch={(v) => list.refine({ keyword: v || undefined })} />
      <SelectionBar count={list.selectedIds.length} onClear={list.clearSelection}>
        <span data-testid="selected">{list.selectedRows.map((r) => r.name).join(',')}</span>
      </SelectionBar>
      <span data-testid="sizes">{(list.table.pagination as TablePaginationConfig).pageSizeOptions?.join('/')}</span>
      <Table<Organisation> {...list.table} columns={[{ title: '机构名称', dataIndex: 'name' }]} />
    </>
  );
}

describe('the paged list of the back office', () => {
  it('pages with the spec’s pager and keeps the selection across pages', async () => {
    api.answers = { [`${URL}?page=1&limit=20`]: page([1, 2]), [`${URL}?page=2&limit=20`]: page([21, 22], 2) };
    renderPage(<Harness />);
    fireEvent.click(within((await screen.findByText('机构1')).closest('tr')!).getByRole('checkbox'));
    expect(screen.getByText('共 45 条')).toBeTruthy();
    fireEvent.click(screen.getByTitle('2'));
    fireEvent.click(within((await screen.findByText('机构21')).closest('tr')!).getByRole('checkbox'));
    expect(await screen.findByText('已选择 2 条')).toBeTruthy();
    // The rows chosen on an earlier page are still known, not only their ids.
    expect(screen.getByTestId('selected').textContent).toBe('机构1,机构21');
    fireEvent.click(screen.getByText('取消选择'));
    await waitFor(() => expect(screen.queryByText(/已选择/)).toBeNull());
  });

  it('offers the page sizes of spec §9 and searches from the first page at the size chosen', async () => {
    api.answers = {
      [`${URL}?page=1&limit=20`]: page([1]),
      [`${URL}?page=2&limit=20`]: page([21], 2),
      [`${URL}?page=1&limit=20&keyword=%E5%AD%A6`]: page([7], 1, 20, 1),
    };
    renderPage(<Harness />);
    await screen.findByText('机构1');
    expect(screen.getByTestId('sizes').textContent).toBe('10/20/30/50');
    fireEvent.click(screen.getByTitle('2'));
    await screen.findByText('机构21');
    fireEvent.change(screen.getByPlaceholderText('机构名称'), { target: { value: '学' } });
    fireEvent.keyDown(screen.getByPlaceholderText('机构名称'), { key: 'Enter', keyCode: 13 });
    expect(await screen.findByText('机构7')).toBeTruthy();
    expect(api.requests.at(-1)?.url).toBe(`${URL}?page=1&limit=20&keyword=%E5%AD%A6`);
  });

  it('reloads the list after a write through the key factory', async () => {
    let removed = false;
    api.answers = {
      '/api/team/userinfo/': { id: 1, username: 'admin', userName: null, faceImg: null },
      '/api/team/userinfo/permission': ['partner:organization:menu', ACTION_CODES.organizationEdit],
      [`GET ${URL}`]: () => (removed ? page([2], 1, 20, 1) : page([1, 2], 1, 20, 2)),
      'DELETE /api/competition/organization/1': () => {
        removed = true;
        return null;
      },
    };
    renderPage(<OrganizationPage />);
    const row = (await screen.findByText('机构1')).closest('tr')!;
    fireEvent.click(await within(row).findByRole('button', { name: /删\s*除/ }));
    fireEvent.click(await screen.findByRole('button', { name: /确\s*定/ }));
    expect(await screen.findByText('机构已删除')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('机构1')).toBeNull());
    expect(screen.getByText('机构2')).toBeTruthy();
    expect(api.requests.filter((r) => r.method === 'GET' && r.url.startsWith(URL))).toHaveLength(2);
  });
});
