import type { Stage } from '../../src/runs/stageRunner.js';
import { finalizeUpdateFrequency } from '../../src/timeline/updateFrequency.js';
import type { WeeklyInput } from './input.js';

/**
 * finalize: the update-frequency class of the week's queries, once their timelines reach 21 days
 * past the start (`sync` gets them there). Repeatable: rerun it after each sync until none is pending.
 */
export const finalizeStage: Stage<WeeklyInput> = {
  name: 'finalize',
  after: ['classify', 'timeline'],
  repeatable: true,
  async run(input, context) {
    return finalizeUpdateFrequency(context.store, { windowStart: input.window.start });
  },
};
