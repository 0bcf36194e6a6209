import type { Compilable } from 'kysely';
import { CompiledQuery } from 'kysely';

/** What stands for a named value while a statement is built; no value a caller passes looks like it. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is the point: no value a caller passes holds it.
const PLACEHOLDER = /^\u0000learnables-value:(.+)\u0000$/;

/**
 * A statement built and compiled once, then run with new values: `build` is given a placeholder
 * for each named value and returns the query as kysely builds it. Kysely otherwise builds the
 * same tree and compiles the same SQL on every call — per statement about as much CPU as SQLite
 * spends running it, on every step of every task (BENCHMARKS.md, runtime overhead).
 *
 * The placeholders must all reach the compiled query as parameters (values of `values`, `set`,
 * `where`…), never as SQL: a name missing from the parameters is refused here, when the statement
 * is first made, not when it runs. Any other parameter is a constant of the statement (`state:
 * 'running'`) and is passed as it was built.
 */
export function compiledOnce<Name extends string, Row = unknown>(
  names: readonly Name[],
  build: (value: (name: Name) => never) => Compilable<Row>,
): (values: Readonly<Record<Name, unknown>>) => CompiledQuery<Row> {
  const compiled = build((name) => `\u0000learnables-value:${name}\u0000` as never).compile();
  const known = new Set<string>(names);
  const order = compiled.parameters.map((parameter) => {
    const name = typeof parameter === 'string' ? PLACEHOLDER.exec(parameter)?.[1] : undefined;
    if (name !== undefined && !known.has(name)) throw new Error(`The statement ${compiled.sql} names a value it was not given (${name}).`);
    return name === undefined ? { name: undefined, constant: parameter as unknown } : { name: name as Name, constant: undefined };
  });
  const missing = names.filter((name) => !order.some((taken) => taken.name === name));
  if (missing.length > 0) throw new Error(`The statement ${compiled.sql} does not use its values ${missing.join(', ')}.`);
  return (values) =>
    CompiledQuery.raw(
      compiled.sql,
      order.map((taken) => (taken.name !== undefined ? values[taken.name] : taken.constant)),
    ) as CompiledQuery<Row>;
}
