import { describe, expect, it } from 'vitest';
import { CustomerMarks, compileMark } from './customer-marks.ts';
import type { Mark } from './customer-marks.ts';
import { InternalSenders } from './internal-senders.ts';
import type { EmailInput } from './email-input.ts';
import { messageFields } from './message-fields.ts';
import { defineCollection } from '@learnables/learnable';
import { RecentSenders } from './recent-senders.ts';
import { MOST_CANDIDATES, suggestEvidence, suggestMark } from './suggest-mark.ts';
import { referencePattern } from './mark-patterns.ts';

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

/** The warehouse's own people, as the fixtures and the scenario stacks have them. */
const internal = new InternalSenders({ domains: ['warehouse.example'] });

const suggested = (input: EmailInput): Mark => {
  const mark = suggestMark(input, { internal });
  if (mark === undefined) throw new Error('expected a suggestion');
  return mark;
};

describe('suggestMark', () => {
  it('suggests a reference with a prefix whole, and it claims neither the reference inside it nor one wider (issue 35, class 7)', () => {
    for (const [reference, inner] of [
      ['KF-BK-2026-1282', 'BK-2026-1282'],
      ['BL-SBF26-0587', 'SBF26-0587'],
    ] as const) {
      const mark = suggested(email({ from: { address: '', name: '' }, subject: `Booking ${reference} confirmed`, body: '' }));
      expect(mark).toEqual({ pattern: referencePattern(reference), where: 'subject' });
      expect(claims(mark, email({ subject: `Booking ${inner} confirmed` }))).toBe(false);
      expect(claims(mark, email({ subject: `Booking XY-${reference} confirmed` }))).toBe(false);
      expect(claims(mark, email({ subject: `booking-note-${reference}.pdf` }))).toBe(true);
    }
  });

  it("suggests the sender's address, escaped, in the from", () => {
    expect(suggestMark(email({}))).toEqual({ pattern: '<billing@origin\\.example>', where: 'from' });
  });

  it('suggests a mark CustomerMarks accepts', () => {
    const northgate = new CustomerMarks('northgate', 'Northgate Motors Ltd');
    const { changed } = northgate.learn(northgate.readValue({ ...suggested(email({})) }));
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
    const pinnacle = new CustomerMarks('pinnacle-audio', 'Pinnacle Audio Ltd');
    expect(pinnacle.learn(pinnacle.readValue({ ...mark })).changed).toBe(true);
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
    // The original sender is the forward's sender: a mark in the from, as for any message it writes.
    expect(mark).toEqual({ pattern: '<logistics@northgate-motors\\.example>', where: 'from' });
    expect(claims(mark, forward)).toBe(true);
    const otherForward = email({ ...forward, body: 'From: Vireo <aiden.cole@vireo-bikes.example>\nframes' });
    expect(claims(mark, otherForward)).toBe(false);
  });

  it("offers neither the forwarder nor the quoted sender of a forward by someone who is not the warehouse's (issue 35)", () => {
    const forward = email({
      from: { address: 'accounts@brightwell-foods-uk.example', name: 'Brightwell Foods Accounts' },
      subject: 'FW: release of held stock',
      body: 'Please release.\n\n-----Original Message-----\nFrom: Sarah Okafor [mailto:s.okafor@brightwell-foods.example]\nSent: Tuesday\nSubject: release\n\nApproved.',
    });
    expect(suggestMark(forward, { internal })).toBeUndefined();
    // Unconfigured, the warehouse's own forward is someone else's too: its clerk is never offered.
    const ops = email({
      from: { address: 'ops@warehouse.example', name: 'Ops' },
      subject: 'Fwd: note',
      body: '---------- Forwarded message ---------\nFrom: Northgate Logistics <logistics@northgate-motors.example>\nSubject: note\n\nPlease book in.',
    });
    expect(suggestMark(ops)).toBeUndefined();
  });

  it('falls back to a reference, not the forwarder, when a forward quotes no sender', () => {
    const forward = email({ from: { address: 'ops@warehouse.example', name: 'Ops' }, subject: 'FW: damaged frames on VB-2026-220', body: 'see below' });
    expect(suggested(forward).where).toBe('subject');
    expect(suggested(forward).pattern).toContain('VB-2026-220');
    expect(suggestMark(email({ ...forward, subject: 'Fwd: hello', body: 'nothing here' }))).toBeUndefined();
  });

  describe('evidence that tells this customer apart (the shared-sender rule)', () => {
    const portal = { address: 'noreply@bookings-portal.example', name: 'Bookings Portal' };
    const customers = (...entries: CustomerMarks[]) =>
      defineCollection('customers', [
        ...entries,
        new CustomerMarks('brightwell-foods', 'Brightwell Foods plc'),
        new CustomerMarks('corvid-electronics', 'Corvid Electronics Inc.'),
      ]);

    it('does not offer a sender that is already a mark of another customer; offers a subject reference and says why', () => {
      const held = new CustomerMarks('northgate', 'Northgate Motors Ltd', [{ pattern: '<desk@portal\\.example>', where: 'from' }]);
      const input = email({ from: { address: 'desk@portal.example', name: 'Portal' }, subject: 'Booking CVE-104455', body: 'slot 14:00' });
      const suggestion = suggestEvidence(input, { customers: customers(held) });
      // The sender AND the reference: narrower than either alone.
      expect(suggestion?.mark).toEqual({ pattern: expect.stringContaining('CVE-104455'), where: 'subject', sender: '<desk@portal\\.example>' });
      expect(suggestion?.why).toContain('already a mark of Northgate Motors Ltd');
      expect(suggestion?.why).toContain('CVE-104455');
    });

    it('never offers a mark another customer holds, even one of its own references', () => {
      const mark = suggested(email({ from: { address: '', name: '' }, subject: 'Pre-alert PA-2026-0901', body: 'see BW-88213' }));
      const holder = new CustomerMarks('pinnacle', 'Pinnacle Audio', [mark]);
      const next = suggestMark(email({ from: { address: '', name: '' }, subject: 'Pre-alert PA-2026-0901', body: 'see BW-88213' }), {
        customers: customers(holder),
      });
      expect(next).toBeDefined();
      expect(next).not.toEqual(mark);
      expect(next?.pattern).toContain('BW-88213');
    });

    it("offers a known customer's name from the body over a booking reference, with the portal as its sender, when the sender is a portal", () => {
      const input = email({ from: portal, subject: 'Booking confirmed BK-55120', body: 'Booking for Brightwell Foods, 22 pallets, dock 4.' });
      const suggestion = suggestEvidence(input, { customers: customers() });
      expect(suggestion?.mark).toMatchObject({ where: 'any', sender: '<noreply@bookings-portal\\.example>' });
      expect(compileMark(suggestion?.mark.pattern ?? '').test('Booking for Brightwell Foods, dock 2')).toBe(true);
      expect(compileMark(suggestion?.mark.pattern ?? '').test('Booking for Brightwell Foodstuffs')).toBe(false);
      expect(suggestion?.why).toContain('automated address');
    });

    it('offers a subject reference for an automated sender when no customer is named', () => {
      const input = email({ from: portal, subject: 'Booking confirmed BK-55120', body: 'Your booking, 22 pallets.' });
      expect(suggested(input)).toMatchObject({ where: 'subject', pattern: expect.stringContaining('BK-55120') });
    });

    it('does not offer a sender lately decided for other customers', () => {
      const recent = new RecentSenders();
      const input = email({ from: { address: 'desk@3pl-hub.example', name: 'Hub' }, subject: 'Arrival NGM/2026/1142', body: '' });
      recent.saw('desk@3pl-hub.example', 'corvid-electronics');
      // Decided before and asked about now: what decided it then was not its address (a mark on it
      // would decide this one too), so the address is not offered alone.
      const once = suggestEvidence(input, { customers: customers(), recent });
      expect(once?.mark).toEqual({ pattern: expect.stringContaining('NGM/2026/1142'), where: 'subject', sender: '<desk@3pl-hub\\.example>' });
      expect(once?.why).toContain("desk@3pl-hub.example's earlier mail for Corvid Electronics Inc. was told apart by something other than its address");
      recent.saw('desk@3pl-hub.example', 'brightwell-foods');
      const suggestion = suggestEvidence(input, { customers: customers(), recent });
      expect(suggestion?.mark.where).toBe('subject');
      expect(suggestion?.why).toContain('lately written for Brightwell Foods plc and Corvid Electronics Inc.');
      // Without that history: a domain that bears no customer's name, writing a reference, is a third party (SPEC §2.3.3).
      const fresh = suggestEvidence(input, { customers: customers() });
      expect(fresh?.mark).toEqual({ pattern: expect.stringContaining('NGM/2026/1142'), where: 'subject', sender: '<desk@3pl-hub\\.example>' });
      expect(fresh?.why).toContain("bears no customer's name");
      // A customer's own people, at a domain that bears its name, are offered their address alone.
      const own = email({ from: { address: 'desk@corvid.example', name: 'Corvid desk' }, subject: 'Arrival CVX-2026-1142', body: '' });
      expect(suggestMark(own, { customers: customers() })).toEqual({ pattern: '<desk@corvid\\.example>', where: 'from' });
    });

    it('offers nothing rather than a shared sender with nothing narrower', () => {
      const held = new CustomerMarks('northgate', 'Northgate Motors Ltd', [{ pattern: '<desk@portal\\.example>', where: 'from' }]);
      const input = email({ from: { address: 'desk@portal.example', name: 'Portal' }, subject: 'hello', body: 'nothing to go on' });
      expect(suggestMark(input, { customers: customers(held) })).toBeUndefined();
    });

    it('prefers a reference in the subject over one in the body', () => {
      const input = email({ from: portal, subject: 'Arrival CVE-104455', body: 'ref NGM/2026/1142' });
      expect(suggested(input).where).toBe('subject');
    });
  });

  describe('never text from a signature or a quoted header block', () => {
    const noSender = { from: { address: '', name: '' }, subject: 'Scanned' };

    it.each([
      ['a dash-dash signature', 'Please book in.\n-- \nHarbourside Warehouse\nUnit 4, NW10 7HQ\nWH-4417 gate'],
      [
        'a sign-off and what follows it',
        'Please book in.\n\nKind regards,\nSam Patel\nHarbourside Warehouse, Dock Road, NW10 7HQ\nTel +44 20 7946 0001, VAT GB-123456',
      ],
      ['a German sign-off', 'Bitte einbuchen.\n\nMit freundlichen Grüßen\nJonas Weber\nDE-28195 Bremen'],
    ])('skips %s', (_, body) => {
      expect(suggestMark(email({ ...noSender, body }))).toBeUndefined();
    });

    it('skips the lines of a quoted header block (its sender aside)', () => {
      const body = 'see below\n\n-----Original Message-----\nFrom: Intake (no address)\nSent: Monday\nSubject: Ticket WH-2026-77\n\nthe text';
      expect(suggestMark(email({ ...noSender, body }))).toBeUndefined();
    });

    it('still finds a reference above the signature', () => {
      const mark = suggested(email({ ...noSender, body: 'Please book in ALC-2026-3310.\n\nKind regards,\nSam\nUnit 4, NW10 7HQ' }));
      expect(mark.pattern).toContain('ALC-2026-3310');
    });

    it('reads a UK postcode outside a signature as an address, not a reference', () => {
      expect(suggestMark(email({ ...noSender, body: 'Deliver to Dock Road, NW10 7HQ please' }))).toBeUndefined();
    });
  });

  describe('a message with thousands of references (a CSV attached) costs a few tries, not one per reference', () => {
    const lines = (count: number, from = 0) => Array.from({ length: count }, (_, at) => `BW-${String(from + at).padStart(5, '0')},pallet,${at}`).join('\n');
    const customers = (...entries: CustomerMarks[]) => defineCollection('customers', entries);
    const attached = (text: string): EmailInput =>
      email({
        from: { address: '', name: '' },
        subject: 'Forecast',
        body: 'Forecast attached.',
        attachments: [{ filename: 'forecast.csv', mediaType: 'text/csv', text }],
      });

    it('offers the first reference of 40,000 at once', () => {
      expect(suggestMark(attached(lines(40_000)))).toEqual({ pattern: referencePattern('BW-00000'), where: 'attachments' });
    });

    it(`looks no further than the first ${MOST_CANDIDATES} candidates`, () => {
      const held = Array.from({ length: MOST_CANDIDATES }, (_, at) => ({
        pattern: referencePattern(`BW-${String(at).padStart(5, '0')}`),
        where: 'attachments' as const,
      }));
      const holder = new CustomerMarks('brightwell', 'Brightwell Foods', held);
      const input = attached(lines(MOST_CANDIDATES + 1));
      expect(suggestMark(input, { customers: customers(holder) })).toBeUndefined();
      // One fewer held, and the first free one is offered.
      expect(suggestMark(input, { customers: customers(new CustomerMarks('brightwell', 'Brightwell Foods', held.slice(1))) })).toEqual({
        pattern: referencePattern('BW-00000'),
        where: 'attachments',
      });
    });
  });
});
