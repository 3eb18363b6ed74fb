import { describe, expect, it } from 'vitest';
import { sampleCsv, sampleCsvLines } from '../src/index.ts';

describe('the sample prediction file', () => {
  it('lists the ids given with a value that fits the metric, alternating two', () => {
    expect([...sampleCsvLines({ metric: 'rmse', idColumn: 'id', targetColumn: 'y' }, ['a', 'b,c', 'd'])]).toEqual([
      'id,y\r\n',
      'a,12.5\r\n',
      '"b,c",3.8\r\n',
      'd,12.5\r\n',
    ]);
    expect(sampleCsv({ metric: 'auc', idColumn: 'customer_id', targetColumn: 'churn' })).toBe('customer_id,churn\r\n1,0.92\r\n2,0.13\r\n');
  });

  it('gives a column per class, each row adding up to one', () => {
    const lines = [...sampleCsvLines({ metric: 'multiLogLoss', idColumn: 'id', targetColumn: 'species' }, ['x', 'y'], ['bird', '狗', '猫'])];
    expect(lines[0]).toBe('id,bird,狗,猫\r\n');
    for (const line of lines.slice(1))
      expect(
        line
          .trimEnd()
          .split(',')
          .slice(1)
          .map(Number)
          .reduce((a, b) => a + b),
      ).toBeCloseTo(1, 5);
    expect([...sampleCsvLines({ metric: 'multiLogLoss', idColumn: 'id', targetColumn: 'species' }, ['x', 'y'], ['a', 'b'])].slice(1)).toEqual([
      'x,0.7,0.3\r\n',
      'y,0.3,0.7\r\n',
    ]);
  });
});
