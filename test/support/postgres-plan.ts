// A PostgreSQL statement's plan as the tests read it: EXPLAIN (FORMAT JSON), its nodes flattened.
import type { CompiledQuery, Kysely } from 'kysely';
import type { Database } from '../../src/store/schema.ts';

export type PlanNode = { 'Node Type': string; 'Relation Name'?: string; 'Index Name'?: string; Plans?: PlanNode[] };

/** Every node of the statement's plan, the root first, each before its children (nothing is run). */
export async function planNodes(db: Kysely<Database>, q: CompiledQuery): Promise<PlanNode[]> {
  const result = await db.executeQuery<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>({ ...q, sql: `explain (format json) ${q.sql}` });
  const flat = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(flat)];
  return flat(result.rows[0]!['QUERY PLAN'][0].Plan);
}
