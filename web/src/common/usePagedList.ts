import { DEFAULT_LIMIT, type Page, type PageQuery } from '@contest/shared';
import { useMutation, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import type { TableProps } from 'antd';
import { useMemo, useState, type Key, type ReactNode } from 'react';
import { pager } from './pager.ts';

/** Where a list's filters and page live: the address (`useUrlQuery`) or the page's own state (`useListState`). */
export interface ListSource<Q extends PageQuery> {
  query: Q;
  setQuery: (next: Q) => void;
  /** Changes when the filters do: the key of a filter form that reads its initial values once. */
  filtersKey?: string;
}

type FiltersOf<Q> = Omit<Q, 'page' | 'limit'>;

/** Filters and page kept by the page itself (lists nothing links to), from page 1 at the default size (spec §9). */
export function useListState<Q extends PageQuery>(initial?: FiltersOf<Q>): ListSource<Q> {
  const [query, setQuery] = useState<Q>(() => ({ page: 1, limit: DEFAULT_LIMIT, ...initial }) as Q);
  return { query, setQuery };
}

export interface PagedListOptions<Q extends PageQuery, T> {
  /** The key factory of the list's API module. */
  queryKey: (q: Q) => QueryKey;
  /** The typed list function of the list's API module. */
  queryFn: (q: Q) => Promise<Page<T>>;
  enabled?: boolean;
  emptyText: ReactNode;
  /** The field that names a row; `id` unless told. */
  rowKey?: keyof T & string;
  /** Rows can be selected, across pages and filters (for the SelectionBar's batch actions and export). */
  selectable?: boolean;
  /** The list's address, which also exports it as xlsx with the same filters (`ExportButton`). */
  exportUrl?: string;
  /** Reloads the page every so many milliseconds while this answers a number (work under way on the server). */
  refetchInterval?: (page: Page<T> | undefined) => number | false;
}

/**
 * The back office's paged list: loads a page for the current filters, and gives the Table its rows, loading state,
 * empty text, the spec's pager (§9) and, when asked, a row selection kept across pages; plus what the filter form,
 * the SelectionBar and the export buttons need. Spread `table` on the antd Table and add the page's own columns.
 */
export function usePagedList<Q extends PageQuery, T extends object>(source: ListSource<Q>, options: PagedListOptions<Q, T>) {
  const { query, setQuery, filtersKey } = source;
  const { refetchInterval } = options;
  const result = useQuery<Page<T>>({
    queryKey: options.queryKey(query),
    queryFn: () => options.queryFn(query),
    enabled: options.enabled,
    refetchInterval: refetchInterval && ((q) => refetchInterval(q.state.data)),
  });
  const rowKey = options.rowKey ?? ('id' as keyof T & string);
  // The selected rows by key, kept across pages and searches so a selection can be built up page by page.
  const [selection, setSelection] = useState<ReadonlyMap<Key, T>>(new Map());
  const selectedIds = useMemo(() => [...selection.keys()] as number[], [selection]);
  const selectedRows = useMemo(() => [...selection.values()], [selection]);

  const table: TableProps<T> = {
    rowKey,
    loading: result.isLoading,
    dataSource: result.data?.list,
    locale: { emptyText: options.emptyText },
    pagination: pager(result.data, (page, limit) => setQuery({ ...query, page, limit })),
  };
  if (options.selectable) {
    table.rowSelection = {
      selectedRowKeys: selectedIds,
      preserveSelectedRowKeys: true,
      onChange: (keys, rows) => {
        const next = new Map<Key, T>();
        for (const key of keys) {
          const row = rows.find((r) => r && r[rowKey] === key) ?? selection.get(key);
          if (row) next.set(key, row);
        }
        setSelection(next);
      },
    };
  }

  return {
    query,
    setQuery,
    filtersKey,
    /** The list's reply (for what the page shows besides the table). */
    result,
    /** New filters in place of the old ones, from the first page at the same page size. */
    search: (filters: FiltersOf<Q>) => setQuery({ ...filters, page: 1, limit: query.limit } as Q),
    /** Some filters changed, the others kept, from the first page. */
    refine: (filters: Partial<FiltersOf<Q>>) => setQuery({ ...query, ...filters, page: 1 }),
    selectedIds,
    selectedRows,
    clearSelection: () => setSelection(new Map()),
    table,
    /** `ExportButton` props: the whole list with its filters (not its page). */
    exportAll: { url: options.exportUrl ?? '', query: { ...query } as Record<string, string | number | undefined> },
    /** `ExportButton` props inside the SelectionBar: the selected rows. */
    exportSelected: { url: options.exportUrl ?? '', query: { ids: selectedIds.join(',') }, size: 'small' as const, label: '导出所选' },
  };
}

/**
 * A write that, once it succeeds, tells the user (`done`) and then reloads the lists named by key factories; its
 * promise settles after the reload, as the dialogs that await it expect.
 */
export function useListMutation<V, R>(mutationFn: (vars: V) => Promise<R>, invalidate: QueryKey[], done?: (result: R, vars: V) => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: async (result, vars) => {
      done?.(result, vars);
      await Promise.all(invalidate.map((queryKey) => client.invalidateQueries({ queryKey })));
    },
  });
}
