import { describe, expect, it } from 'vitest';
import { referencePattern, senderPattern, escapePattern } from './mark-patterns.ts';
import { markWords } from './mark-words.ts';

// The name pattern exactly as suggest-mark writes it.
const namePattern = (name: string) => `(?:^|[^0-9a-z])${escapePattern(name).replace(/\s+/g, '\\s+')}(?:$|[^0-9a-z])`;

describe('markWords', () => {
  it('says each suggestion shape the agent writes in words, with no pattern syntax left', () => {
    expect(markWords({ pattern: senderPattern('billing@origin.example'), where: 'from' })).toBe('mail from billing@origin.example');
    expect(markWords({ pattern: namePattern('Northgate Motors'), where: 'subject' })).toBe("the words 'Northgate Motors' in the subject");
    expect(markWords({ pattern: referencePattern('PA-2026-0901'), where: 'body' })).toBe("the reference 'PA-2026-0901' in the message text");
    expect(markWords({ pattern: referencePattern('OFC-58729'), where: 'any', sender: senderPattern('noreply@dockslot-portal.example') })).toBe(
      "the reference 'OFC-58729' anywhere in mail from noreply@dockslot-portal.example",
    );
    expect(markWords({ pattern: '@origin\\.example>', where: 'from' })).toBe('mail from anyone at origin.example');
    expect(markWords({ pattern: 'Harbour \\(North\\)', where: 'attachments' })).toBe("the text 'Harbour (North)' in an attachment");
  });

  it('quotes a hand-written pattern as a pattern rather than guess what it means', () => {
    expect(markWords({ pattern: '\\bBK-\\d{4}-\\d{4}\\b', where: 'subject' })).toBe("text matching the pattern '\\bBK-\\d{4}-\\d{4}\\b' in the subject");
    expect(markWords({ pattern: 'north.*gate', where: 'from' })).toBe("text matching the pattern 'north.*gate' in the sender");
  });
});
