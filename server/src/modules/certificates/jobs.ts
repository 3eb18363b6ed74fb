import { z } from 'zod';
import { defineJob } from '../../jobs/define.ts';
import { generate, generationGaveUp } from './service.ts';

/** Writes a question's certificates; `origin` is the public address their verification QR codes point to. */
export const generateJob = defineJob({
  id: 'certificate.generate',
  payload: z.object({ questionId: z.number().int().positive(), origin: z.string().min(1) }),
  run: (deps, { questionId, origin }) => generate(deps, questionId, origin),
  failed: (deps, { questionId }, error) => generationGaveUp(deps, questionId, error),
});
