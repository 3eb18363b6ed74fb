import { useParams, useSearchParams } from 'react-router';
import { ID_PATTERN } from '../../common/idRoutes.tsx';

/**
 * A numeric route parameter (spec §2.3: detail routes take digits), or for a route that takes it in the query
 * (`/question/questionWorks?questionId=`) the query parameter of that name. The routes send an address with anything
 * but digits to the 404 page (common/idRoutes.tsx); should one get here all the same, it comes back as null.
 */
export function useIdParam(name: string): number | null {
  const fromPath = useParams()[name];
  const [search] = useSearchParams();
  const raw = fromPath ?? search.get(name) ?? '';
  return ID_PATTERN.test(raw) ? Number(raw) : null;
}
