import { Buffer } from 'node:buffer';

export interface LargeEmailOptions {
  /** Bytes of the attachment before base64 (which grows it by a third, plus line breaks). Default 25 MiB. */
  readonly attachmentBytes?: number;
  /** Rows of a CSV attachment (a text attachment the agent reads); none by default. */
  readonly csvRows?: number;
  /** The From header. Default `Origin Billing <billing@origin.example>`. */
  readonly from?: string;
  readonly subject?: string;
  /** The text part. */
  readonly text?: string;
}

/**
 * An email as large as a 25 MB mailbox lets through: a text part, an optional CSV and a binary
 * attachment (`scans.pdf`) in base64 lines of 76 characters: 35.9 MB with the defaults, 36.8 MB
 * with `csvRows: 40_000` (the worst-input benchmark's largest email).
 */
export function largeEmail(options: LargeEmailOptions = {}): Buffer {
  const attachment = Buffer.alloc(options.attachmentBytes ?? 25 * 1024 * 1024, 7)
    .toString('base64')
    .replace(/.{76}/g, '$&\r\n');
  const csv =
    options.csvRows === undefined
      ? []
      : [
          '--b1',
          'Content-Type: text/csv; name="forecast.csv"',
          'Content-Disposition: attachment; filename="forecast.csv"',
          '',
          Array.from({ length: options.csvRows }, (_, at) => `BW-${String(at).padStart(5, '0')},pallet,${at}`).join('\r\n'),
        ];
  return Buffer.from(
    [
      `From: ${options.from ?? 'Origin Billing <billing@origin.example>'}`,
      'To: intake@warehouse.example',
      `Subject: ${options.subject ?? 'Scans for OB-55120'}`,
      'Date: Mon, 05 Oct 2026 09:00:00 +0000',
      'MIME-Version: 1.0',
      'Content-Type: multipart/mixed; boundary="b1"',
      '',
      '--b1',
      'Content-Type: text/plain; charset=utf-8',
      '',
      options.text ?? 'Scans attached.',
      ...csv,
      '--b1',
      'Content-Type: application/pdf; name="scans.pdf"',
      'Content-Disposition: attachment; filename="scans.pdf"',
      'Content-Transfer-Encoding: base64',
      '',
      attachment,
      '--b1--',
      '',
    ].join('\r\n'),
  );
}
