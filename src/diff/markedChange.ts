/**
 * A key change with the marks the diff stage gives it (filtered, reverted), as zod reads it where it
 * crosses a boundary: a diff job's result from the queue, and a stored change from the store.
 */
import { z } from 'zod';

export const MarkedKeyChangeSchema = z.object({
  template: z.string(),
  key: z.string(),
  kind: z.enum(['added', 'removed', 'changed']),
  old: z.string(),
  new: z.string(),
  filtered: z.enum(['styling_key', 'file_value', 'empty_value']).nullable(),
  revertedBy: z.number().int().nullable(),
});
