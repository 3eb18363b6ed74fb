import type { RouteOptions, preValidationHookHandler } from 'fastify';
import type { z } from 'zod';
import { notFound, STATUS_MESSAGES } from './errors.ts';

type Def = { type: string; innerType?: z.ZodType; in?: z.ZodType };

/** The zod type under optional/default/nullable/pipe wrappers. */
function base(schema: z.ZodType): string {
  let def = (schema as unknown as { _zod: { def: Def } })._zod.def;
  for (let i = 0; i < 10 && (def.innerType || (def.type === 'pipe' && def.in)); i++) {
    def = ((def.innerType ?? def.in) as unknown as { _zod: { def: Def } })._zod.def;
  }
  return def.type;
}

/** The names of a route's path parameters its schema reads as numbers (`/:id` with `z.coerce.number()`). */
export function numericParams(route: RouteOptions): string[] {
  const shape = (route.schema?.params as { shape?: Record<string, z.ZodType> } | undefined)?.shape;
  if (!shape) return [];
  return Object.entries(shape)
    .filter(([, s]) => base(s) === 'number')
    .map(([name]) => name);
}

/**
 * A path segment that is not an integer where a route reads a number is no address of this API: `/upload` under a base
 * that also has `/:id` is not the id NaN. Such a request is answered 404 接口不存在 before validation (after the access
 * check, so that an anonymous caller still learns only that a login is needed). Negative or zero ids stay the schema's
 * 400 (编号须为正整数).
 */
export function refuseNonNumericParams(route: RouteOptions) {
  const names = numericParams(route);
  if (!names.length) return;
  const check: preValidationHookHandler = async (req) => {
    const params = req.params as Record<string, string>;
    for (const name of names) if (!/^-?\d+$/.test(params[name] ?? '')) throw notFound(STATUS_MESSAGES[404]);
  };
  const existing = route.preValidation;
  route.preValidation = existing ? [check, ...[existing].flat()] : check;
}
