import { CUSTOM_METRIC, type EvaluationBody, type EvaluationMetric } from '@contest/shared';
import type { Selectable } from 'kysely';
import type { QuestionsTable } from './schema.ts';

type EvaluationColumns = Pick<
  Selectable<QuestionsTable>,
  'metric' | 'idColumn' | 'targetColumn' | 'publicPercent' | 'dailyLimit' | 'positiveLabel' | 'topK' | 'higherIsBetter' | 'timeLimitSec' | 'metricName'
>;
/**
 * A question's evaluation setting, when all of its columns are set (an own program reads no target column); the
 * metric's own settings only when stored.
 */
export const evaluationOf = ({
  metric,
  idColumn,
  targetColumn,
  publicPercent,
  dailyLimit,
  positiveLabel,
  topK,
  higherIsBetter,
  timeLimitSec,
  metricName,
}: EvaluationColumns): EvaluationBody | null =>
  metric && idColumn && (targetColumn || metric === CUSTOM_METRIC) && publicPercent && dailyLimit
    ? {
        metric: metric as EvaluationMetric,
        idColumn,
        ...(targetColumn !== null && { targetColumn }),
        publicPercent,
        dailyLimit,
        ...(positiveLabel !== null && { positiveLabel }),
        ...(topK !== null && { k: topK }),
        ...(higherIsBetter !== null && { higherIsBetter: higherIsBetter === 1 }),
        ...(timeLimitSec !== null && { timeLimitSec }),
        ...(metricName !== null && { metricName }),
      }
    : null;
