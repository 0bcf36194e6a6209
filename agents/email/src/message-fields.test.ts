import { describe, expect, it } from 'vitest';
import type { EmailInput } from './email-input.ts';
import { messageFields, senderLine } from './message-fields.ts';

const email: EmailInput = {
  from: { address: 'billing@origin.example', name: 'Origin Billing' },
  subject: 'Invoice OB-55120',
  body: 'Please find attached.',
  attachments: [
    { filename: 'OB-55120_invoice.pdf', mediaType: 'application/pdf' },
    { filename: 'statement.csv', mediaType: 'text/csv', text: 'ref;amount\nNGM/2026/1142;12.00' },
  ],
};

describe('messageFields', () => {
  it('shows the sender as "Name <address>"', () => {
    expect(messageFields(email).from).toBe('Origin Billing <billing@origin.example>');
  });

  it('shows a sender without a name as "<address>"', () => {
    expect(senderLine({ address: 'billing@origin.example', name: '' })).toBe('<billing@origin.example>');
  });

  it('keeps a display name from posing as an address', () => {
    expect(senderLine({ address: 'evil@x.example', name: 'Billing <billing@origin.example>' })).toBe('Billing billing@origin.example <evil@x.example>');
  });

  it('gives the subject and body as they are', () => {
    expect(messageFields(email).subject).toBe('Invoice OB-55120');
    expect(messageFields(email).body).toBe('Please find attached.');
  });

  it('lets attachment marks see every file name and the text of text-like attachments', () => {
    expect(messageFields(email).attachments).toBe('OB-55120_invoice.pdf\nstatement.csv\nref;amount\nNGM/2026/1142;12.00');
  });
});
