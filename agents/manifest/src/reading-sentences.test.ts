import { describe, expect, it } from 'vitest';
import { sentences } from './reading-sentences.ts';

describe('the sentences a reading is made of', () => {
  it('asks for a field by its label, in the middle of a sentence', () => {
    expect(sentences.question('Waybill number', 'm.xlsx', [])).toBe(
      "Which column holds the waybill number? None of the headings in 'm.xlsx' is one I know for it.",
    );
    expect(sentences.question('HS code', 'm.xlsx', [])).toMatch(/^Which column holds the HS code\?/);
  });

  it('lists the unplaced headings as a person would, trimmed, and stops after twelve', () => {
    expect(sentences.question('Waybill number', 'm.xlsx', ['  Ref '])).toContain("the column I could not place is 'Ref'.");
    expect(sentences.question('Waybill number', 'm.xlsx', ['A', 'B', 'C'])).toContain("the columns I could not place are 'A', 'B' and 'C'.");
    const fourteen = Array.from({ length: 14 }, (_, i) => `H${i + 1}`);
    expect(sentences.question('Waybill number', 'm.xlsx', fourteen)).toContain("'H11', 'H12' and 2 more.");
  });

  it('says what a finding reads, how it came to, and what an empty field means', () => {
    expect(sentences.reads('waybill', ' AWB ', { answered: false, sameHeaded: 0 })).toBe("reads waybill from the 'AWB' column");
    expect(sentences.reads('weight', 'Weight', { answered: true, sameHeaded: 2 })).toBe(
      "reads weight from the 'Weight' column, the first of 3 columns so headed, as the operator answered",
    );
    expect(sentences.emptyField('consignee')).toBe('no column for consignee; it comes back empty');
    expect(sentences.missingRequired('waybill')).toBe('no column for waybill, which is required, so I ask which column holds it');
  });

  it('names duplicate columns by their letters and says which one is read', () => {
    expect(sentences.duplicateNote('weight', 'Weight', [5, 6, 10])).toBe(
      "Columns F, G and K have the same heading, 'Weight' (ignoring case and spaces); weight is read from F, the first.",
    );
  });

  it('says how many rows are listed of how many', () => {
    expect(sentences.truncatedNote(5_000, 100_000)).toBe('The sheet has 100,000 rows; the first 5,000 are listed here.');
  });
});
