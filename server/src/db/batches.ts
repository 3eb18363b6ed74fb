/**
 * How exports read the database: in batches of `size` rows. Tests make it small to see several batches, and may watch
 * each read through `onRead` (the number of rows it returned).
 */
export const exportBatches: { size: number; onRead?: (rows: number) => void } = { size: 250 };

/**
 * Reads a query's rows in batches, each starting after the last row of the one before (keyset paging on the list's
 * order), so a long read holds one batch at a time, costs the same for the last batch as for the first, and neither
 * skips nor repeats a row when rows are added meanwhile. `read(after, limit)` returns at most `limit` rows following
 * the row whose key is `after` (from the start when undefined). Pulled lazily: a consumer that stops asking (a client
 * that went away) stops the reads.
 */
export async function* keysetBatches<Row, Key>(
  read: (after: Key | undefined, limit: number) => Promise<Row[]>,
  keyOf: (row: Row) => Key,
  size = exportBatches.size,
): AsyncGenerator<Row[], void, undefined> {
  let after: Key | undefined;
  for (;;) {
    const rows = await read(after, size);
    exportBatches.onRead?.(rows.length);
    if (rows.length) yield rows;
    if (rows.length < size) return;
    after = keyOf(rows[rows.length - 1]!);
  }
}

/** Every row of the batches, in order; for the few callers that need them all at once (not exports). */
export async function allRows<Row>(batches: AsyncIterable<Row[]>): Promise<Row[]> {
  const out: Row[] = [];
  for await (const batch of batches) out.push(...batch);
  return out;
}
