import { useParams } from 'react-router';

/**
 * A numeric route parameter (spec §2.3: detail routes take digits). React Router has no pattern for
 * digits, so anything else comes back as null and the page shows the 404 page.
 */
export function useIdParam(name: string): number | null {
  const raw = useParams()[name] ?? '';
  return /^\d{1,15}$/.test(raw) ? Number(raw) : null;
}
