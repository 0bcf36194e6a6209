import { describe, expect, it } from 'vitest';
import type { MarkHit } from './match-marks.ts';
import { howSentence, questionFor, readsAnswered, readsClose, readsSettled } from './sentences.ts';

const hit = (text: string, field: MarkHit['field'], pattern = text): MarkHit => ({ customer: 'northgate', mark: { pattern, where: field }, field, text });

describe('readsSettled', () => {
  it('names the customer and the sender that decided it', () => {
    expect(readsSettled('Northgate Motors Ltd', [hit('billing@origin.example', 'from')])).toBe('Reads as Northgate Motors Ltd, on billing@origin.example');
  });

  it('drops the angle brackets of an exact-sender mark', () => {
    expect(readsSettled('Northgate Motors Ltd', [hit('<billing@origin.example>', 'from')])).toBe('Reads as Northgate Motors Ltd, on billing@origin.example');
  });

  it('says where each mark matched when it is not the sender', () => {
    expect(readsSettled('Northgate Motors Ltd', [hit('@northgate-motors.example', 'from'), hit('NGM/2026/1187', 'subject')])).toBe(
      'Reads as Northgate Motors Ltd, on @northgate-motors.example and NGM/2026/1187 in the subject',
    );
  });

  it('shows three marks and counts the rest', () => {
    const hits = ['a1', 'a2', 'a3', 'a4', 'a5'].map((text) => hit(text, 'body'));
    expect(readsSettled('Alpha', hits)).toBe('Reads as Alpha, on a1 in the body, a2 in the body, a3 in the body and 2 more marks');
  });

  it('shortens a long match', () => {
    expect(readsSettled('Alpha', [hit('x'.repeat(200), 'body')])).toBe(`Reads as Alpha, on ${'x'.repeat(59)}… in the body`);
  });
});

describe('the other sentences', () => {
  it('credits the answer to whoever gave it', () => {
    expect(readsAnswered('Northgate Motors Ltd', undefined)).toBe('Northgate Motors Ltd, as the operator answered');
    expect(readsAnswered('Northgate Motors Ltd', 'dana')).toBe('Northgate Motors Ltd, as dana answered');
  });

  it('names the contenders of a tie', () => {
    expect(readsClose(['Northgate Motors Ltd', 'Brightwell Foods plc'], 1)).toBe(
      'Could be Northgate Motors Ltd or Brightwell Foods plc; the marks do not tell them apart.',
    );
    expect(questionFor(['A', 'B', 'C'])).toBe('Which customer does this message belong to: A, B or C?');
  });

  it('says a lone leader did not clear the margin', () => {
    expect(readsClose(['Northgate Motors Ltd'], 2)).toBe('Leans to Northgate Motors Ltd, but by less than the margin of 2 points.');
    expect(questionFor(['Northgate Motors Ltd'])).toBe('Which customer does this message belong to: Northgate Motors Ltd or another?');
  });

  it('asks plainly when nothing matched', () => {
    expect(questionFor([])).toBe('Which customer does this message belong to?');
  });

  it('writes the margin into the how sentence', () => {
    expect(howSentence(1)).toContain('leads the next by at least 1 point (the margin)');
    expect(howSentence(3)).toContain('leads the next by at least 3 points (the margin)');
  });
});
