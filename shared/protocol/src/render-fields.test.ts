import { describe, expect, it } from 'vitest';
import { fieldsToRender, prefillFields } from './index.ts';

describe('the client rule: render lesson fields blind', () => {
  it('turns a choice into a select and text into a text input', () => {
    const fields = fieldsToRender([
      { name: 'a', label: 'A', kind: 'text' },
      { name: 'b', label: 'B', kind: 'choice', choices: ['x', 'y'], default: 'y' },
    ]);
    expect(fields.map((f) => f.control)).toEqual(['text', 'select']);
    expect(fields[1]).toMatchObject({ choices: ['x', 'y'], default: 'y' });
  });

  it('renders a kind it does not know (colour) as a plain text input, never dropping it', () => {
    const fields = fieldsToRender([
      { name: 'shade', label: 'Shade', kind: 'colour', help: 'any colour' },
      { name: 'weight', label: 'Weight', kind: 'number' },
    ]);
    expect(fields).toEqual([
      { name: 'shade', label: 'Shade', control: 'text', declaredKind: 'colour', help: 'any colour' },
      { name: 'weight', label: 'Weight', control: 'text', declaredKind: 'number' },
    ]);
  });

  it('does not throw on fields it cannot make sense of; it still renders one input each', () => {
    const fields = fieldsToRender([null, { kind: 'choice' }, { name: 'x', label: 7, kind: 42 }]);
    expect(fields).toHaveLength(3);
    expect(fields.every((f) => f.control === 'text')).toBe(true);
    expect(fields.map((f) => f.name)).toEqual(['field-1', 'field-2', 'x']);
    expect(fieldsToRender(undefined)).toEqual([]);
  });

  it('prefills from the suggestion by field name, then from defaults', () => {
    const fields = fieldsToRender([
      { name: 'a', label: 'A', kind: 'text' },
      { name: 'b', label: 'B', kind: 'choice', choices: ['x', 'y'], default: 'y' },
      { name: 'c', label: 'C', kind: 'colour' },
    ]);
    expect(prefillFields(fields, { a: 'from the message', c: 12 })).toEqual({ a: 'from the message', b: 'y', c: '12' });
    expect(prefillFields(fields, undefined)).toEqual({ a: '', b: 'y', c: '' });
  });
});
