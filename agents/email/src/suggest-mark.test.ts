import { describe, expect, it } from 'vitest';
import { CustomerMarks, compileMark } from './customer-marks.ts';
import type { Mark } from './customer-marks.ts';
import type { EmailInput } from './email-input.ts';
import { messageFields } from './message-fields.ts';
import { suggestMark } from './suggest-mark.ts';

const email = (overrides: Partial<EmailInput>): EmailInput => ({
  from: { address: 'billing@origin.example', name: 'Origin Billing' },
  subject: 'Pre-alert and invoice OB-55120',
  body: 'Your reference: NGM/2026/1142',
  attachments: [],
  ...overrides,
});

/** Whether a suggested mark would claim this message, the way the agent matches. */
function claims(mark: Mark, input: EmailInput): boolean {
  const fields = messageFields(input);
  const places = mark.where === 'any' ? (['from', 'subject', 'body', 'attachments'] as const) : [mark.where];
  return places.some((place) => compileMark(mark.pattern).test(fields[place]));
}

const suggested = (input: EmailInput): Mark => {
  const mark = suggestMark(input);
  if (mark === undefined) throw new Error('expected a suggestion');
  return mark;
};

describe('suggestMark', () => {
  it("suggests the sender's address, escaped, in the from", () => {
    expect(suggestMark(email({}))).toEqual({ pattern: '<billing@origin\\.example>', where: 'from' });
  });

  it('suggests a mark CustomerMarks accepts', () => {
    const { changed } = new CustomerMarks('northgate', 'Northgate Motors Ltd').learn({ ...suggested(email({})) });
    expect(changed).toBe(true);
  });

  it('suggests a mark that matches the message it came from', () => {
    const input = email({ from: { address: 'Billing@Origin.example', name: '' } });
    expect(claims(suggested(input), input)).toBe(true);
  });

  it.each([
    ['another address at the same domain', 'accounts@origin.example'],
    ['a lookalike domain', 'billing@origin-example.example'],
    ['an address that ends with this one', 'ebilling@origin.example'],
    ['an address that starts with this one', 'billing@origin.example.net'],
    ['a domain where the dot is another character', 'billing@originxexample'],
  ])('suggests a mark that does not match a message from %s', (_, address) => {
    const mark = suggested(email({}));
    expect(claims(mark, email({ from: { address, name: 'Origin Billing' } }))).toBe(false);
  });

  it('is not fooled by a display name that quotes the address', () => {
    const mark = suggested(email({}));
    expect(claims(mark, email({ from: { address: 'evil@x.example', name: '<billing@origin.example>' } }))).toBe(false);
  });

  it('without a sender, suggests the first reference, exactly, where it was found', () => {
    const input = email({ from: { address: '', name: 'Scanner' }, subject: 'Pre-alert PA-2026-0901', body: 'see BW-88213' });
    const mark = suggested(input);
    expect(mark.where).toBe('subject');
    expect(claims(mark, input)).toBe(true);
    for (const other of ['PA-2026-0417', 'PA-2026-09011', 'PA-2026', 'XPA-2026-0901', 'PA-2026-0901-2']) {
      expect(claims(mark, email({ subject: `Pre-alert ${other}` })), other).toBe(false);
    }
    expect(new CustomerMarks('pinnacle-audio', 'Pinnacle Audio Ltd').learn({ ...mark }).changed).toBe(true);
  });

  it('looks for a reference in the body, then the attachments, when the subject has none', () => {
    const noSender = { from: { address: '', name: '' }, subject: 'Scanned document' };
    expect(suggested(email({ ...noSender, body: 'ref NGM/2026/1142' })).where).toBe('body');
    expect(suggested(email({ ...noSender, body: 'hello', attachments: [{ filename: 'DGD_ALC-2026-3310.pdf', mediaType: 'application/pdf' }] })).where).toBe(
      'attachments',
    );
  });

  it('suggests nothing when there is neither a sender nor a reference', () => {
    expect(suggestMark(email({ from: { address: '', name: '' }, subject: 'hello', body: 'no references here' }))).toBeUndefined();
  });

  it('skips a reference too long to be a mark', () => {
    const longest = `AB-${'1'.repeat(600)}`;
    expect(suggestMark(email({ from: { address: '', name: '' }, subject: longest, body: 'BW-88213' }))?.where).toBe('body');
  });

  it("suggests a forwarded message's original sender, never the clerk who forwarded it", () => {
    const forward = email({
      from: { address: 'ops@warehouse.example', name: 'Warehouse Ops' },
      subject: 'Fwd: delivery note - please book in',
      body: '---------- Forwarded message ---------\nFrom: Northgate Logistics <logistics@northgate-motors.example>\nSubject: delivery note\n\nPlease book in.',
    });
    const mark = suggested(forward);
    expect(mark).toEqual({ pattern: '<logistics@northgate-motors\\.example>', where: 'body' });
    expect(claims(mark, forward)).toBe(true);
    const otherForward = email({ ...forward, body: 'From: Vireo <aiden.cole@vireo-bikes.example>\nframes' });
    expect(claims(mark, otherForward)).toBe(false);
  });

  it('falls back to a reference, not the forwarder, when a forward quotes no sender', () => {
    const forward = email({ from: { address: 'ops@warehouse.example', name: 'Ops' }, subject: 'FW: damaged frames on VB-2026-220', body: 'see below' });
    expect(suggested(forward).where).toBe('subject');
    expect(suggested(forward).pattern).toContain('VB-2026-220');
    expect(suggestMark(email({ ...forward, subject: 'Fwd: hello', body: 'nothing here' }))).toBeUndefined();
  });
});
