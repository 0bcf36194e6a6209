import type { MessageFields } from './message-fields.ts';

/**
 * Messages that belong to no customer anyone will ever teach: a mark is evidence for one customer
 * only if it stays out of most of them. Every field of every probe holds text, so a pattern that
 * matches any text at all (`.`, `\b`, `\S`) matches every probe in whatever place it looks.
 * They are varied on purpose (trades, languages, scripts, senders with and without names) and
 * carry what real mail carries everywhere: addresses, dates, numbers, URLs, punctuation.
 */
const WRITTEN: readonly MessageFields[] = [
  {
    from: 'Ingrid Solheim <ingrid.solheim@fjellvann-bryggeri.no>',
    subject: 'Bestilling uke 14 – 3 paller',
    body: 'Hei,\nvi trenger levering til lageret i Bergen innen fredag 4. april.\nMvh Ingrid\nTlf. +47 55 12 34 56',
    attachments: 'bestilling-uke14.pdf',
  },
  {
    from: '<noreply@status.cloudhost.io>',
    subject: '[Resolved] Elevated error rates in eu-west-2',
    body: 'Between 09:14 and 09:52 UTC some requests returned 503. See https://status.cloudhost.io/incidents/8812 for details.',
    attachments: 'incident-8812.json\n{"id": 8812, "state": "resolved"}',
  },
  {
    from: 'Dr. Amara Okonkwo <a.okonkwo@lagos-teaching-hospital.ng>',
    subject: 'Re: conference abstract (deadline 30/06)',
    body: 'Dear colleague, thank you for the reminder. The revised abstract is attached; 248 words, within the limit.',
    attachments: 'abstract_v3.docx',
  },
  {
    from: 'Müller & Söhne KG <info@mueller-soehne.de>',
    subject: 'Rechnung Nr. 2025-0193 vom 12.03.2025',
    body: 'Sehr geehrte Damen und Herren,\nanbei erhalten Sie unsere Rechnung über 1.284,50 EUR, zahlbar innerhalb von 14 Tagen.',
    attachments: 'Rechnung_2025-0193.pdf',
  },
  {
    from: 'Tomás Rivera <tomas@riveraphoto.studio>',
    subject: 'Wedding photos are ready!',
    body: 'Hi both — the gallery is live at https://riveraphoto.studio/g/k7Qx2 (password in a separate text). 412 images.',
    attachments: 'IMG_0042.jpg\nIMG_0043.jpg',
  },
  {
    from: '佐藤 健 <k.sato@sakura-denki.co.jp>',
    subject: '見積書の件（第2版）',
    body: 'いつもお世話になっております。見積書の第2版を添付いたします。ご確認のほどよろしくお願いいたします。',
    attachments: '見積書_v2.xlsx',
  },
  {
    from: 'Library notices <notices@citylibrary.gov.example>',
    subject: 'Your loan is due in 3 days',
    body: 'The following item is due on 2025-11-18: "The Shipping News" (barcode 30012004417). Renew online or call 0161 555 0199.',
    attachments: 'loan-summary.txt\nItem 1 of 1, renewals left: 2',
  },
  {
    from: 'Priya Nair <priya.nair@gmail.com>',
    subject: 'dinner saturday?',
    body: 'are you free sat evening? thinking 7:30 at the thai place on Cole St. let me know :)',
    attachments: 'menu.png',
  },
  {
    from: '<alerts@bank-of-westmoor.example>',
    subject: 'Security alert: new sign-in',
    body: 'We noticed a new sign-in to your account from Chrome on Windows at 22:41. If this was you, no action is needed.',
    attachments: 'signin-details.html\n<p>Location: Leeds, UK</p>',
  },
  {
    from: 'Facilities <facilities@north-campus.ac.uk>',
    subject: 'Planned power outage, Building C, Sunday 06:00-10:00',
    body: 'Lifts and the server room in Building C will be without power. Please shut down lab equipment by Saturday 18:00.',
    attachments: 'outage-plan.pdf',
  },
  {
    from: 'Оксана Коваль <oksana.koval@ukr.net>',
    subject: 'Переклад договору',
    body: 'Добрий день! Надсилаю переклад договору №17/2025. Загалом 9 сторінок, вартість 2 700 грн.',
    attachments: 'dogovir-17-2025.docx',
  },
  {
    from: 'GitForge <notifications@gitforge.dev>',
    subject: '[acme/widgets] Pull request #418 merged',
    body: 'Merged #418 into main: "fix: handle empty config (closes #402)". 3 files changed, 41 insertions(+), 7 deletions(-).',
    attachments: 'patch-418.diff\n@@ -12,7 +12,9 @@ export function load(path) {',
  },
];

/** Random characters in the mix mail is made of, the same on every run (a fixed seed). */
function noise(seed: number, length: number): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789 .,-/@<>:';
  let state = seed;
  let text = '';
  for (let i = 0; i < length; i += 1) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    text += alphabet[(state >>> 16) % alphabet.length];
  }
  return text;
}

/**
 * Long runs of random characters in every field: a mark found in all of them is found anywhere
 * (one letter, `\d`, `.{400}` — the last would claim every message long enough).
 */
export const NOISE_MESSAGES: readonly MessageFields[] = [1, 2, 3, 4].map((seed) => ({
  from: noise(seed * 4, 1000),
  subject: noise(seed * 4 + 1, 1000),
  body: noise(seed * 4 + 2, 1000),
  attachments: noise(seed * 4 + 3, 1000),
}));

/** What a new mark is tried against when it is taught: written mail, then the noise. */
export const PROBE_MESSAGES: readonly MessageFields[] = [...WRITTEN, ...NOISE_MESSAGES];
