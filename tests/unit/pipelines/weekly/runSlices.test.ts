/** Weekly stages' slices overlap two at a time; a failure is thrown once the slices under way have ended. */
import { describe, expect, it } from 'vitest';
import { runSlices } from '../../../../pipelines/weekly/batchRunner.js';

const tick = () => new Promise((resolveTick) => setTimeout(resolveTick, 5));

describe('runSlices', () => {
  it('keeps two slices under way, never three, and runs them all', async () => {
    let underWay = 0;
    let most = 0;
    const ended: number[] = [];
    let next = 0;
    await runSlices(() => {
      if (next === 5) return null;
      const slice = next++;
      underWay++;
      most = Math.max(most, underWay);
      return tick().then(() => {
        underWay--;
        ended.push(slice);
      });
    });
    expect(most).toBe(2);
    expect(ended.sort()).toEqual([0, 1, 2, 3, 4]);
  });

  it('throws the failure of a later slice only once the earlier one has ended, and starts no further slice', async () => {
    const ended: number[] = [];
    let next = 0;
    const run = runSlices(() => {
      const slice = next++;
      if (slice === 0) return tick().then(tick).then(() => void ended.push(0));
      if (slice === 1) return Promise.reject(new Error('slice 1 failed'));
      return tick().then(() => void ended.push(slice));
    });
    await expect(run).rejects.toThrow('slice 1 failed');
    expect(ended).toEqual([0]);
  });
});
