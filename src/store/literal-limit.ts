// Page sizes written into the SQL instead of bound, for both dialects' query compilers.
//
// SQLite reads a page through a bound `LIMIT ?` markedly slower (0.185 vs 0.103 ms for 26 of
// 100,000 meetings, same plan). PostgreSQL plans a bound `LIMIT $n` of a named statement's generic
// plan as if it returned a tenth of the rows, so the generic plan of a list looks dearer than its
// custom plans and the statement is re-planned on every execution (postgres.ts). A page size is a
// fact of a shaped statement (prepared.ts), never a caller's value, so inlining it adds at most one
// statement text per page size in use.
import type { DefaultQueryCompiler, LimitNode } from 'kysely';

/** The limit as SQL when it is a whole number given as a value; anything else (an expression, 2.5) is left to the compiler to bind. */
function literalLimit(node: LimitNode): string | undefined {
  const limit = node.limit as { kind: string; value?: unknown };
  if (limit.kind === 'ValueNode' && Number.isSafeInteger(limit.value) && (limit.value as number) >= 0) return `limit ${limit.value as number}`;
  return undefined;
}

/**
 * A dialect's query compiler that writes whole-number page sizes into the SQL and binds every other
 * limit as it did (`any[]`: TypeScript requires it of a mixin's constructor).
 */
export function withLiteralLimits<C extends new (...args: any[]) => DefaultQueryCompiler>(Compiler: C) {
  return class extends Compiler {
    protected override visitLimit(node: LimitNode): void {
      const literal = literalLimit(node);
      if (literal === undefined) super.visitLimit(node);
      else this.append(literal);
    }
  };
}
