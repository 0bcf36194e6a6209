/** A lesson field as a client should draw it: only two controls exist, a select and a text input. */
export interface FieldToRender {
  readonly name: string;
  readonly label: string;
  readonly control: 'select' | 'text';
  /** The kind the agent declared, kept so a client can show it (e.g. as a hint) if it wants. */
  readonly declaredKind: string;
  readonly help?: string;
  readonly choices?: readonly string[];
  readonly default?: string;
}

const asText = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/**
 * The client rule of learnables v1: turn a declaration's `lessonFields` into fields to render.
 * `choice` with choices becomes a select; every other kind, known or not, becomes a text input.
 * Nothing is dropped and nothing throws: a skipped field would produce a lesson the agent
 * refuses at the very moment a person is trying to fix something.
 */
export function fieldsToRender(lessonFields: unknown): FieldToRender[] {
  if (!Array.isArray(lessonFields)) return [];
  return lessonFields.map((raw: unknown, index): FieldToRender => {
    const field = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
    const name = asText(field.name)?.trim() || `field-${index + 1}`;
    const declaredKind = asText(field.kind) ?? 'text';
    const choices = Array.isArray(field.choices) ? field.choices.filter((c): c is string => typeof c === 'string') : [];
    const help = asText(field.help);
    const fallback = asText(field.default);
    return {
      name,
      label: asText(field.label)?.trim() || name,
      control: declaredKind === 'choice' && choices.length > 0 ? 'select' : 'text',
      declaredKind,
      ...(help !== undefined && { help }),
      ...(declaredKind === 'choice' && choices.length > 0 && { choices }),
      ...(fallback !== undefined && { default: fallback }),
    };
  });
}

/**
 * The initial value of each field: the teach block's suggestion where it has one, otherwise the
 * declared default, otherwise empty. The suggestion is read by field name, generically: a client
 * never knows what any name means.
 */
export function prefillFields(fields: readonly FieldToRender[], suggested: unknown): Record<string, string> {
  const suggestion = typeof suggested === 'object' && suggested !== null ? (suggested as Record<string, unknown>) : {};
  const values: Record<string, string> = {};
  for (const field of fields) {
    const proposed = Object.hasOwn(suggestion, field.name) ? suggestion[field.name] : undefined;
    values[field.name] =
      proposed === undefined || proposed === null
        ? (field.default ?? (field.control === 'select' ? (field.choices?.[0] ?? '') : ''))
        : typeof proposed === 'string'
          ? proposed
          : JSON.stringify(proposed);
  }
  return values;
}
