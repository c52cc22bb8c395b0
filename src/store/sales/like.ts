// Case-insensitive substring patterns for LIKE, with wildcards in the user's text escaped.
import { sql, type RawBuilder } from 'kysely';

export function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** lower(column) LIKE '%text%' with an explicit escape character (portable across both dialects). */
export function ilike(column: string, text: string): RawBuilder<boolean> {
  return sql<boolean>`lower(${sql.ref(column)}) like ${containsPattern(text)} escape '\\'`;
}
