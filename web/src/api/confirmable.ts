import type { RequestOptions } from '../common/http.ts';

/**
 * Requests the server carries out only once the organiser has read what they risk: refused with 409 and the warning
 * under `fields.<field>`, done when sent again with `<field>=1` (admin/components/useConfirmedRetry.ts asks).
 * `reopen`: a change of dates, stages or menus that reopens submission after results were published; `early`:
 * assigning works while teams can still replace them.
 */
export type ConfirmField = 'reopen' | 'early';
export type Confirmable<F extends ConfirmField> = { silent?: boolean } & Partial<Record<F, boolean>>;

/** The request options of a confirmable request: the field as a query parameter once confirmed. */
export const confirmOptions = <F extends ConfirmField>(field: F, o: Confirmable<F> = {}): RequestOptions => ({
  params: o[field] ? { [field]: 1 } : undefined,
  silent: o.silent,
});
