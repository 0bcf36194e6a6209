import { describe, expect, it } from 'vitest';
import type { EmailInput } from './email-input.ts';
import { forwardedSender, hasForwardPrefix } from './forwards.ts';
import { messageFields } from './message-fields.ts';

const DESK = { address: 'intake@harbourside-warehouse.example', name: 'Harbourside Intake' };

const forward = (subject: string, body: string): EmailInput => ({ from: DESK, subject, body, attachments: [] });

/** One real-shaped sample per layout, each from the mail program that writes it. */
const LAYOUTS: readonly [string, string, string, string][] = [
  [
    'Gmail',
    'Fwd: Pre-alert BW-88213',
    'Please book in.\n\n---------- Forwarded message ---------\nFrom: Dana Okafor <dana.okafor@brightwell-foods.example>\nDate: Mon, 2 Nov 2026 at 09:14\nSubject: Pre-alert BW-88213\nTo: <intake@harbourside-warehouse.example>\n\nHi, 22 pallets arriving Thursday.',
    'dana.okafor@brightwell-foods.example',
  ],
  [
    'Apple Mail',
    'Fwd: delivery tomorrow',
    'FYI\n\nBegin forwarded message:\n\nFrom: "Lars Vik" <lars@fjordseafood.example>\nSubject: delivery tomorrow\nDate: 3 November 2026 at 07:02:11 CET\nTo: intake@harbourside-warehouse.example\n\nTwo reefers at 06:00.',
    'lars@fjordseafood.example',
  ],
  [
    'Outlook, old layout with mailto',
    'FW: Invoice 4471',
    'see below\n\n-----Original Message-----\nFrom: Accounts Payable [mailto:ap@corvid.example]\nSent: Tuesday, November 03, 2026 10:12 AM\nTo: Intake\nSubject: Invoice 4471\n\nPlease find attached.',
    'ap@corvid.example',
  ],
  [
    'Outlook, underscore rule and bold labels',
    'FW: pallets',
    'Can someone check?\n\n________________________________\nFrom: Mei Tanaka <mei.tanaka@marigold.example>\nSent: Wednesday, 4 November 2026 08:30\nTo: Intake <intake@harbourside-warehouse.example>\nSubject: pallets\n\n4 pallets, cosmetics.',
    'mei.tanaka@marigold.example',
  ],
  [
    'Outlook, German',
    'WG: Lieferavis KP/2026/0412',
    'Bitte einbuchen.\n\n-----Ursprüngliche Nachricht-----\nVon: Jonas Weber [mailto:j.weber@kestrel-pharma.example]\nGesendet: Mittwoch, 4. November 2026 11:05\nAn: Intake\nBetreff: Lieferavis KP/2026/0412\n\nSehr geehrte Damen und Herren,',
    'j.weber@kestrel-pharma.example',
  ],
  [
    'Thunderbird, French',
    'TR: Avis de livraison',
    'Pour info\n\n-------- Message transféré --------\nSujet : Avis de livraison\nDate : Thu, 5 Nov 2026 09:00:00 +0100\nDe : Camille Roux <camille.roux@palmera.example>\nPour : intake@harbourside-warehouse.example\n\nBonjour,',
    'camille.roux@palmera.example',
  ],
  [
    'Outlook, French',
    'TR: Commande 5520',
    '\n\nDe : Service Client <client@alder-chem.example>\nEnvoyé : jeudi 5 novembre 2026 10:00\nÀ : Intake\nObjet : Commande 5520\n\nBonjour,',
    'client@alder-chem.example',
  ],
  [
    'Outlook, Italian',
    'I: Avviso di spedizione',
    '-----Messaggio originale-----\nDa: Giulia Conti [mailto:giulia.conti@harborlane.example]\nInviato: venerdì 6 novembre 2026 12:00\nA: Intake\nOggetto: Avviso di spedizione\n\nBuongiorno,',
    'giulia.conti@harborlane.example',
  ],
  [
    'Outlook, Spanish',
    'RV: Aviso de envío',
    '-----Mensaje original-----\nDe: Lucía Gómez [mailto:lucia@palmera.example]\nEnviado el: viernes, 6 de noviembre de 2026 13:00\nPara: Intake\nAsunto: Aviso de envío\n\nHola,',
    'lucia@palmera.example',
  ],
  [
    'Quoted with > marks',
    'Fwd: booking',
    '> From: Northgate Logistics <logistics@northgate-motors.example>\n> Date: 7 Nov 2026\n> Subject: booking\n>\n> 3 cars.',
    'logistics@northgate-motors.example',
  ],
  [
    'a forward under a subject the clerk wrote herself',
    'Please book in the Fjord reefers',
    'Thanks!\n\nFrom: Lars Vik <lars@fjordseafood.example>\nSent: 8 November 2026 07:00\nTo: Intake\nSubject: reefers\n\nTwo reefers.',
    'lars@fjordseafood.example',
  ],
  [
    'a reply to a forward, German (AW: WG:)',
    'AW: WG: Lieferavis',
    'Erledigt.\n\n-----Ursprüngliche Nachricht-----\nVon: Jonas Weber <j.weber@kestrel-pharma.example>\nGesendet: Mittwoch\nBetreff: Lieferavis',
    'j.weber@kestrel-pharma.example',
  ],
];

describe('forwardedSender', () => {
  it.each(LAYOUTS)('reads the original sender of a forward: %s', (_, subject, body, original) => {
    const input = forward(subject, body);
    expect(forwardedSender(input)?.address).toBe(original);
    // Marks see the original sender in the from; the desk is nowhere in it.
    expect(messageFields(input).from).toContain(`<${original}>`);
    expect(messageFields(input).from).not.toContain(DESK.address);
  });

  it('skips a colleague who forwarded it on, for the customer further down', () => {
    const body =
      'FYI\n\n---------- Forwarded message ---------\nFrom: Sam <sam@harbourside-warehouse.example>\nDate: today\nSubject: Fwd: booking\n\n' +
      '---------- Forwarded message ---------\nFrom: Dana Okafor <dana.okafor@brightwell-foods.example>\nDate: yesterday\nSubject: booking\n\nHi';
    expect(forwardedSender(forward('Fwd: Fwd: booking', body))?.address).toBe('dana.okafor@brightwell-foods.example');
  });

  it('reads a message forwarded as an attachment', () => {
    const input: EmailInput = {
      from: DESK,
      subject: 'Fwd: note',
      body: 'see attached',
      attachments: [{ filename: 'note.eml', mediaType: 'message/rfc822', text: 'From: Lars Vik <lars@fjordseafood.example>\nSubject: note\n\nhello' }],
    };
    expect(forwardedSender(input)?.address).toBe('lars@fjordseafood.example');
  });

  it.each([
    [
      'an ordinary message that mentions a From: line deep in its text',
      'Order',
      `${'line\n'.repeat(20)}From: Someone <someone@elsewhere.example>\nSent: today\n`,
    ],
    [
      'a reply that quotes our own earlier message',
      'RE: your booking',
      'Thanks, confirmed.\n\n-----Original Message-----\nFrom: Intake [mailto:intake@harbourside-warehouse.example]\nSent: Monday\nSubject: your booking',
    ],
    [
      'a reply (German) that quotes another sender',
      'AW: Lieferavis',
      'Danke.\n\n-----Ursprüngliche Nachricht-----\nVon: Jonas Weber <j.weber@kestrel-pharma.example>\nGesendet: Mittwoch\nBetreff: Lieferavis',
    ],
    ['prose that says from: without a header block', 'Question', 'From: what I can see, the pallets are late.\nRegards'],
  ])('does not read %s as a forward', (_, subject, body) => {
    expect(forwardedSender(forward(subject, body))).toBeUndefined();
    expect(messageFields(forward(subject, body)).from).toContain(DESK.address);
  });

  it.each([
    ['Fwd: x', true],
    ['FW: x', true],
    ['WG: x', true],
    ['TR: x', true],
    ['RV: x', true],
    ['I: x', true],
    ['AW: WG: x', true],
    ['Re: x', false],
    ['AW: x', false],
    ['Invoice: 4471', false],
  ])('reads the subject %s as a forward: %s', (subject, expected) => {
    expect(hasForwardPrefix(subject)).toBe(expected);
  });
});
