import { readNumber } from '@learnables/learnable';
import type { InputPart } from '@learnables/runtime';
import { InputRefused } from '@learnables/runtime';

/** One parcel as the agent reads it. Plain JSON, because the runtime journals it. */
export interface Parcel {
  /** Lower case, as the collection's keys are. */
  readonly category: string;
  readonly weightKg: number;
}

const HOW_TO_SEND = 'Send a parcel as data, {"category": "furniture", "weightKg": 32}, or as text such as "furniture 32".';

function parcel(category: unknown, weight: unknown): Parcel {
  const name = typeof category === 'string' ? category.trim().toLowerCase() : '';
  if (name === '') throw new InputRefused(`This parcel has no category. ${HOW_TO_SEND}`);
  const weightKg = readNumber(weight, 'kg');
  if (weightKg === undefined) throw new InputRefused(`This ${name} parcel has no weight in kilograms. ${HOW_TO_SEND}`);
  if (weightKg <= 0) throw new InputRefused(`A parcel weighs more than 0 kg, and this ${name} parcel says ${weightKg} kg; weigh it again.`);
  return { category: name, weightKg };
}

/** The first data part, else the message's text: `<category> <weight>[ kg]`. */
export function parseParcel(parts: readonly InputPart[]): Parcel {
  const data = parts.find((part) => part.kind === 'data');
  if (data) {
    const fields = typeof data.data === 'object' && data.data !== null ? (data.data as Record<string, unknown>) : {};
    return parcel(fields.category, fields.weightKg);
  }
  const text = parts
    .map((part) => (part.kind === 'text' ? part.text : ''))
    .join(' ')
    .trim();
  if (text === '') throw new InputRefused(`There is no parcel in this message. ${HOW_TO_SEND}`);
  const match = /^(.+?)[\s,:]+(-?\d+(?:\.\d+)?\s*(?:kg)?)$/i.exec(text);
  if (!match) throw new InputRefused(`"${text.length > 60 ? `${text.slice(0, 60)}…` : text}" is not a parcel I can read. ${HOW_TO_SEND}`);
  return parcel(match[1], match[2]);
}
