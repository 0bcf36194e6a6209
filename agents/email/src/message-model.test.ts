import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { EmailInput } from './email-input.ts';
import { InternalSenders } from './internal-senders.ts';
import { messageModel } from './message-model.ts';
import { parseEmail } from './parse-email.ts';

const fixtures = new URL('../../../fixtures/email/', import.meta.url);
const internal = new InternalSenders({ domains: ['warehouse.example'] });
const email = (overrides: Partial<EmailInput>): EmailInput => ({
  from: { address: 'desk@haulier.example', name: 'Desk' },
  subject: 'Re: slots',
  body: '',
  attachments: [],
  ...overrides,
});
const own = (body: string) => messageModel(email({ body })).own.body.trim();

describe('the author’s new text: quoted history as mail programs write it', () => {
  it('Gmail and Apple Mail: an attribution line and > lines', () => {
    expect(own('Thursday works.\n\nOn Tue, 27 Oct 2026 at 16:02, Intake <intake@warehouse.example> wrote:\n> Bay 2 for NGM/2026/1142.\n')).toBe(
      'Thursday works.',
    );
    expect(own('Fine.\n\nOn 27 Oct 2026, at 16:02, Intake <intake@warehouse.example> wrote:\n\n> KP/2026/4410\n')).toBe('Fine.');
    // Gmail wraps a long attribution.
    expect(own('Fine.\n\nOn Tue, 27 Oct 2026 at 16:02, Intake Desk of the Warehouse <\nintake@warehouse.example> wrote:\n> KP/2026/4410')).not.toContain('KP/');
  });

  it('Thunderbird and localized attributions', () => {
    expect(own('Ok.\n\nOn 03/11/2026 17:55, Intake wrote:\n> GT-2026-0711')).toBe('Ok.');
    expect(own('Passt.\n\nAm 03.11.2026 um 17:55 schrieb Intake:\n> KP/2026/4410')).toBe('Passt.');
    expect(own("D'accord.\n\nLe mar. 3 nov. 2026 à 17:55, Intake <intake@warehouse.example> a écrit :\n> KP/2026/4410")).toBe("D'accord.");
  });

  it('Outlook: a header block or a separator, and everything below it', () => {
    expect(own('Booked.\n\nFrom: Intake <intake@warehouse.example>\nSent: Monday, October 26, 2026 4:40 PM\nTo: Mark\nSubject: schedule\n\nTWP2026118')).toBe(
      'Booked.',
    );
    expect(own('Gebucht.\n\nVon: Intake <intake@warehouse.example>\nGesendet: Montag\nAn: Mark\nBetreff: Plan\n\nTWP2026118')).toBe('Gebucht.');
    expect(own('Booked.\n-----Original Message-----\nTWP2026118')).toBe('Booked.');
    expect(own('Booked.\n________________________________\nTWP2026118')).toBe('Booked.');
  });

  it('keeps the author’s text around inline quotes, and lines that only look like headers', () => {
    expect(own('> Can you do Thursday?\nYes, NGM/2026/1142 on Thursday.\n> And the bay?\nBay 4.')).toBe('Yes, NGM/2026/1142 on Thursday.\nBay 4.');
    expect(own('Route\nFrom: Felixstowe\nTo: Grays\nRef NGM/2026/1142')).toContain('NGM/2026/1142');
  });
});

describe('forwards and who forwarded them', () => {
  const forward = (from: string) =>
    email({
      from: { address: from, name: 'Kev' },
      subject: 'Fwd: note',
      body: 'Please book in.\n\n---------- Forwarded message ---------\nFrom: Northgate <logistics@northgate-motors.example>\nSubject: note\nTo: ops@warehouse.example\n\nNGM/2026/1187, 3 crates.\n\nOn Mon, Intake wrote:\n> PA-2026-0901',
    });

  it('by one of the warehouse’s own people: the original sender and text are the author’s, its own quoted history is not', () => {
    const model = messageModel(forward('ops@warehouse.example'), internal);
    expect(model.forward).toEqual({
      by: { address: 'ops@warehouse.example', name: 'Kev' },
      original: { address: 'logistics@northgate-motors.example', name: 'Northgate' },
      internal: true,
    });
    expect(model.author.address).toBe('logistics@northgate-motors.example');
    expect(model.own.from).toBe('<logistics@northgate-motors.example>');
    expect(model.own.subject).toBe('Fwd: note');
    expect(model.own.body).toContain('NGM/2026/1187');
    expect(model.own.body).not.toContain('PA-2026-0901');
  });

  it('by anyone else: the forwarder is the author, and the forwarded message is quoted text', () => {
    const model = messageModel(forward('ops@warehouse.example.invalid'), internal);
    expect(model.forward?.internal).toBe(false);
    expect(model.own).toEqual({ from: '<ops@warehouse.example.invalid>', subject: '', body: 'Please book in.\n', attachments: '' });
    expect(model.all.from).toContain('logistics@northgate-motors.example');
  });

  it('by anyone else: a forward opened only by a lone `From:` line (HTML turned into text) is quoted text too', () => {
    // Anyone can type a customer's header block, here one paragraph a line.
    const forged = email({
      from: { address: 'accounts@freight-desk.example', name: 'Accounts' },
      subject: 'FW: Updated bank details',
      body: 'Please see below and action today.\n\nFrom: Alder Chemicals <ap@alder-chemicals.example>\n\nSent: Monday, 4 January 2027 09:12\n\nSubject: Updated bank details\n\nAlder Chemicals has new bank details for invoice AC-2027-0042.',
    });
    const model = messageModel(forged, internal);
    expect(model.forward?.internal).toBe(false);
    expect(model.own.body).not.toContain('Alder');
    expect(model.own.body).toContain('Please see below');
  });

  it('by a look-alike of the forwarded sender’s domain: an impostor, none of whose words decide (its signature names the customer)', () => {
    const forged = (from: string) =>
      messageModel(
        email({
          from: { address: from, name: 'Alder Chemicals Finance' },
          subject: 'FW: Updated bank details – ALC-2027-8213',
          body: 'Please process the payment today.\n\nRegards\nAlder Chemicals Finance\n\n________________________________\nFrom: Alder Planning <planning@alder-chem.example>\nSent: Tuesday 9 March 2027 09:35\nSubject: Updated bank details\n\nnew bank details, ALC-2027-8213',
        }),
        internal,
      );
    for (const lookalike of [
      'finance@alder-chem.example.secure-invoice.invalid',
      'finance@alder-chem-payments.example',
      'finance@alder-chem.example-zahlung.invalid',
    ]) {
      const model = forged(lookalike);
      expect(model.own, lookalike).toEqual({ from: '', subject: '', body: '', attachments: '' });
      expect(model.unverified, lookalike).toMatch(/imitates alder-chem\.example, the domain of the message it forwards/);
    }
    // The customer's own domain and its subdomains are no look-alikes; nor is another company's.
    for (const honest of ['finance@alder-chem.example', 'finance@mail.alder-chem.example', 'desk@haulier.example']) {
      expect(forged(honest).unverified, honest).toBeUndefined();
    }
    expect(forged('finance@mail.alder-chem.example').own.body).toContain('Alder Chemicals Finance');
  });

  it('a `>`-quoted forward by the warehouse is unquoted one level', () => {
    const quoted = email({
      from: { address: 'ops@warehouse.example', name: '' },
      subject: 'Fwd: x',
      body: 'fyi\n\n> From: A <a@customer.example>\n> Date: Mon\n> Subject: x\n> To: ops@warehouse.example\n>\n> BW-88213 please',
    });
    expect(messageModel(quoted, internal).own.body).toContain('BW-88213 please');
  });
});

describe('the kind of mail, from its headers and subject', () => {
  const kind = async (file: string) => messageModel(await parseEmail(await readFile(new URL(file, fixtures))), internal).kind;

  it('reads the fixtures of each kind', async () => {
    expect(await kind('evidence/ooo-exchange-automatic-reply-northgate.eml')).toBe('auto-reply');
    expect(await kind('evidence/ooo-german-x-autoreply-kestrel.eml')).toBe('auto-reply');
    expect(await kind('evidence/ooo-subject-only-brightwell.eml')).toBe('auto-reply');
    expect(await kind('evidence/ticket-zendesk-acknowledgement-corvid.eml')).toBe('auto-reply');
    expect(await kind('evidence/ticket-freshdesk-acknowledgement-tidewater.eml')).toBe('auto-reply');
    expect(await kind('evidence/bounce-postfix-undelivered-kestrel.eml')).toBe('delivery-report');
    expect(await kind('evidence/bounce-exchange-ndr-tidewater.eml')).toBe('delivery-report');
    expect(await kind('evidence/quoted-gmail-reply-kestrel-reference.eml')).toBe('person');
    expect(await kind('northgate-billing-prealert.eml')).toBe('person');
  });

  it('Auto-Submitted: no is a person’s mail; auto-generated and Precedence: bulk are notices; Precedence: list a list post', () => {
    const of = (headerFacts: EmailInput['headerFacts']) => messageModel(email({ subject: 'Hello', ...(headerFacts && { headerFacts }) })).kind;
    expect(of(undefined)).toBe('person');
    expect(of({ autoSubmitted: 'auto-generated' })).toBe('notice');
    expect(of({ precedence: 'bulk' })).toBe('notice');
    expect(of({ precedence: 'list' })).toBe('list');
    expect(of({ autoSubmitted: 'auto-replied' })).toBe('auto-reply');
  });

  it('reads the header facts a parser kept, and none for a plain message', async () => {
    const bounce = await parseEmail(await readFile(new URL('evidence/bounce-postfix-undelivered-kestrel.eml', fixtures)));
    expect(bounce.headerFacts).toEqual({ autoSubmitted: 'auto-replied', reportType: 'delivery-status' });
    const dmarc = await parseEmail(await readFile(new URL('evidence/dmarc-fail-spoofed-brightwell.eml', fixtures)));
    expect(dmarc.headerFacts?.authenticationResults?.[0]).toMatch(
      /^mx\.warehouse\.example; spf=fail .* dmarc=fail action=quarantine header\.from=brightwell-foods\.example$/,
    );
    expect((await parseEmail(await readFile(new URL('northgate-billing-prealert.eml', fixtures)))).headerFacts).toBeUndefined();
  });
});

describe('bounded by the body’s head', () => {
  it('past the first 64 KB every line is the author’s, and nothing before it is lost', () => {
    const line = 'Pallet 4 of 9, shrink-wrapped and labelled for the chilled bay.';
    const long = Array.from({ length: 2000 }, () => line).join('\n');
    const body = `Hello,\n${long}\nNGM/2026/1142 at the end.`;
    expect(messageModel(email({ body })).own.body).toBe(body);
    const quotedEarly = `Thursday works.\n\nOn Mon, Intake wrote:\n> KP/2026/4410\n${long}`;
    expect(messageModel(email({ body: quotedEarly })).own.body).not.toContain('KP/2026/4410');
  });
});
