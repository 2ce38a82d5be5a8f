/**
 * Column parsers the repositories share: every row read back goes through a zod schema, so a schema
 * drift fails loudly at the read instead of travelling on as a wrong type (docs/ARCHITECTURE.md §9).
 */
import { z } from 'zod';
import { InfoboxSchema } from '../model.js';
import { EvidenceIndices } from '../model/growover.js';

/** A TEXT column holding JSON, decoded and checked against a schema. */
export function jsonColumn<T extends z.ZodType>(schema: T) {
  return z.string().transform((text): unknown => JSON.parse(text)).pipe(schema);
}

/** An INTEGER 0/1 column as a boolean. */
export const flag = z.union([z.literal(0), z.literal(1)]).transform((value) => value === 1);

/** An infobox's ordered [key, value] entries. */
export const FieldsColumn = jsonColumn(InfoboxSchema.shape.fields);

/** An infobox as a key → value object. */
export const InfoboxColumn = jsonColumn(z.record(z.string(), z.string()));

/** Sentence indices. */
export const IndicesColumn = jsonColumn(EvidenceIndices);

/** A single-column COUNT or similar. */
export const Count = z.number().int();
export const Texts = z.array(z.string());
export const Numbers = z.array(z.number());

/** The provenance columns every generated item carries (docs/ARCHITECTURE.md §2), gathered into one object. */
export const ProvenanceColumns = {
  prompt: z.string(),
  prompt_version: z.string(),
  provider: z.string(),
  model: z.string(),
  seed: z.string(),
};

/** The provenance of a generated row (prompt, its version, provider, model, seed) from its columns. */
export function provenanceOf(row: z.infer<z.ZodObject<typeof ProvenanceColumns>>) {
  return { prompt: row.prompt, promptVersion: row.prompt_version, provider: row.provider, model: row.model, seed: row.seed };
}
