// zod schemas of the JSON columns of the sales tables: parsed at the repository boundary.
import { z } from 'zod';

export const EvidenceJson = z.object({ quote: z.string(), speaker: z.string(), side: z.string(), start_s: z.number(), meeting_id: z.string().optional() });
export const AgentPropertyJson = z.object({ key: z.string(), title: z.string(), max_score: z.number().nullable() });
export const ResultPropertyJson = z.object({
  key: z.string(),
  title: z.string(),
  result_md: z.string(),
  score: z.number().nullable(),
  max_score: z.number().nullable(),
  evidence: z.array(EvidenceJson),
});
export const DimensionJson = z.object({
  key: z.string(),
  title: z.string(),
  score: z.number(),
  max_score: z.number(),
  status: z.enum(['strong', 'partial', 'missing']),
  summary: z.string(),
  evidence: z.array(EvidenceJson),
  gaps: z.array(z.string()),
});
export const HistoryJson = z.object({ updated_at: z.string(), total_percent: z.number() });
export const NextStepJson = z.object({ text: z.string(), owner: z.string().nullable(), due: z.string().nullable() });
export const CustomFieldsJson = z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]));

/** The JSON list columns, built once (not per row or per call). */
export const StringsJson = z.array(z.string());
export const AgentPropertiesJson = z.array(AgentPropertyJson);
export const ResultPropertiesJson = z.array(ResultPropertyJson);
export const DimensionsJson = z.array(DimensionJson);
export const HistoryListJson = z.array(HistoryJson);
export const NextStepsJson = z.array(NextStepJson);

export function parseJson<T extends z.ZodType>(schema: T, text: string): z.output<T> {
  return schema.parse(JSON.parse(text));
}
