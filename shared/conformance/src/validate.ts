// Each object the extension puts on the wire is validated twice: by the zod schema the reference
// implementation uses, and by the committed JSON Schema file that outside implementers read
// (shared/protocol/schemas/*.json, draft 2020-12). Agreement of the two is itself tested in the
// protocol package; here both verdicts are reported, so a failure names which one objected.
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { ErrorObject, ValidateFunction } from 'ajv';
import Ajv2020Module from 'ajv/dist/2020.js';
import type { z } from 'zod';
import {
  DeclarationSchema,
  LessonOutcomeSchema,
  OutcomeSchema,
  PreviewResultSchema,
  ReadingSchema,
  RefusalSchema,
  RereadResultSchema,
  RetractionOutcomeSchema,
  CorrectionOutcomeSchema,
  TeachBlockSchema,
  explainInvalid,
} from '@learnables/protocol';

export type SchemaName =
  | 'declaration'
  | 'teach-block'
  | 'reading'
  | 'reread-result'
  | 'refusal'
  | 'lesson-outcome'
  | 'outcome'
  | 'preview-result'
  | 'retraction-outcome'
  | 'correction-outcome';

const zodSchemas: Record<SchemaName, z.ZodType> = {
  declaration: DeclarationSchema,
  'teach-block': TeachBlockSchema,
  reading: ReadingSchema,
  'reread-result': RereadResultSchema,
  refusal: RefusalSchema,
  'lesson-outcome': LessonOutcomeSchema,
  outcome: OutcomeSchema,
  'preview-result': PreviewResultSchema,
  'retraction-outcome': RetractionOutcomeSchema,
  'correction-outcome': CorrectionOutcomeSchema,
};

/**
 * Where the committed JSON Schemas are: the protocol package's `schemas/` folder, which it exports
 * (`@learnables/protocol/schemas/*`) in this repository and in its published package alike.
 */
export function schemasFolder(): string {
  return dirname(createRequire(import.meta.url).resolve('@learnables/protocol/schemas/teach-block.json'));
}

// ajv is CommonJS with `module.exports = Ajv2020` and `module.exports.default = Ajv2020`: under
// NodeNext the default import is typed as the module, whose `.default` is the class either way.
const Ajv2020 = Ajv2020Module.default;

let compiled: Map<SchemaName, ValidateFunction> | undefined;

function jsonValidators(): Map<SchemaName, ValidateFunction> {
  if (compiled) return compiled;
  const folder = schemasFolder();
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  const byName = new Map<SchemaName, ValidateFunction>();
  for (const file of readdirSync(folder).filter((f) => f.endsWith('.json'))) {
    const schema = JSON.parse(readFileSync(join(folder, file), 'utf8')) as Record<string, unknown>;
    const name = file.replace(/\.json$/, '') as SchemaName;
    byName.set(name, ajv.compile(schema));
  }
  compiled = byName;
  return byName;
}

function explainJson(errors: readonly ErrorObject[] | null | undefined): string {
  return [...new Set((errors ?? []).map((e) => `${e.instancePath.replace(/^\//, '').replace(/\//g, '.') || 'the value'} ${e.message ?? 'is invalid'}`))].join(
    '; ',
  );
}

export interface Verdict {
  readonly ok: boolean;
  /** Empty when ok; otherwise which validator objected and why, as one clause. */
  readonly problems: string;
}

/** Validate with both the zod schema and the committed JSON Schema file. */
export function validate(name: SchemaName, value: unknown): Verdict {
  const problems: string[] = [];
  const byZod = zodSchemas[name].safeParse(value);
  if (!byZod.success) problems.push(`the zod schema says ${explainInvalid(byZod.error)}`);
  const byJson = jsonValidators().get(name);
  if (!byJson) problems.push(`schemas/${name}.json is missing from ${schemasFolder()}`);
  else if (!byJson(value)) problems.push(`schemas/${name}.json says ${explainJson(byJson.errors)}`);
  return { ok: problems.length === 0, problems: problems.join('; and ') };
}
