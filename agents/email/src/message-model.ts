import type { EmailInput, EmailSender } from './email-input.ts';
import { FORWARD_SEARCHED, forwardOf, hasForwardPrefix, isSeparatorLine, quotedHeaderBlocks } from './forwards.ts';
import { InternalSenders } from './internal-senders.ts';
import { messageFieldsWith } from './message-fields.ts';
import { VIA } from './sender-kinds.ts';
import type { MessageFields } from './message-fields.ts';

/**
 * The message as mail systems read it (issue 35): whose new text it is, what is quoted history,
 * what was forwarded and by whom, and what kind of mail it is. Marks decide only on the author's
 * own part (`own`); everything else (`all`) may be shown and explained, never decide alone.
 *
 * Hand-written rather than a library's: the reply parsers on the registry (email-reply-parser,
 * planer, talonjs, email-forward-parser) split a plain-text body into fragments with backtracking
 * JavaScript patterns over the whole body and know nothing of who forwarded what; this reads the
 * same quoted header blocks forwards.ts already finds, line by line over the body's head, and the
 * RFC 3834 / RFC 3464 / RFC 8601 headers the parser kept (`EmailInput.headerFacts`).
 */

/** What kind of mail it is. `list` is a list's post (RFC 2919 `List-Id`, `Precedence: list`). */
export type MailKind = 'person' | 'auto-reply' | 'delivery-report' | 'list' | 'notice';

export interface MessageForward {
  /** Who forwarded it: the message's own sender. */
  readonly by: EmailSender;
  /** The sender its quoted header block names. */
  readonly original: EmailSender;
  /** Whether `by` is one of the warehouse's own people, who alone forward on a customer's behalf. */
  readonly internal: boolean;
}

export interface MessageModel {
  readonly kind: MailKind;
  /** Auto-replies, delivery reports and notices: nobody's unless a lesson says so. */
  readonly automated: boolean;
  /** Why it is automated, in the operator's words (for the question). */
  readonly kindBecause?: string;
  /** Whose new text this is: the sender, or a forward's original sender when the warehouse forwarded it. */
  readonly author: EmailSender;
  readonly forward?: MessageForward;
  /** Set when the receiving server reports a failing DMARC (or aligned SPF/DKIM) for the From domain: why. */
  readonly unverified?: string;
  /**
   * Set when the message is nobody's unless a lesson says otherwise, and why (SPEC §2.3.7): a delivery
   * report, an automatic reply, a forward by a look-alike of the forwarded sender's domain (a likely
   * impostor), mail whose DMARC failed with its domain asking for it to be quarantined or rejected, as
   * the warehouse's own server reports. A newsletter (`Precedence: bulk` with `List-Unsubscribe`) only
   * `whenNothingNamed`: when no entry's mark, name or a reference is in its own part.
   */
  readonly nobodys?: { readonly because: string; readonly whenNothingNamed?: true };
  /** For a list's post rewritten "via" the list (the author's address in `Reply-To`): the list's own address. */
  readonly via?: EmailSender;
  /** The author's own part, as marks see it: what an unasked decision may rest on. */
  readonly own: MessageFields;
  /** Every part, as marks saw the message before the model (quoted history and forwards included). */
  readonly all: MessageFields;
}

const NO_ONE = new InternalSenders();

/** The model of one message; `internal` says who the warehouse's own people are. */
export function messageModel(input: EmailInput, internal: InternalSenders = NO_ONE): MessageModel {
  // The body split once, for the forward, the quoted history and the new text alike.
  // (Only its head: past FORWARD_SEARCHED nothing is looked for, and a 1 MiB body is 80,000 lines.)
  const headLines = linesOf(input.body.length > FORWARD_SEARCHED ? input.body.slice(0, FORWARD_SEARCHED) : input.body);
  const forward = forwardOf(input, headLines);
  const all = messageFieldsWith(input, forward?.sender);
  const automated = automatedBecause(input);
  const unverified = failedAuthentication(input) ?? imitatedBy(input, forward?.sender, internal);
  const kind: MailKind = automated?.kind ?? (/^list$/i.test(input.headerFacts?.precedence ?? '') ? 'list' : 'person');
  // A forward counts as the warehouse's only from its own people, and only when their domain is not failing authentication.
  const trusted = forward !== undefined && automated === undefined && unverified === undefined && internal.has(input.from.address);
  const forwarded: MessageForward | undefined =
    forward === undefined || automated !== undefined ? undefined : { by: input.from, original: forward.sender, internal: trusted };
  // A list that rewrites its members' From (`Ann Smith via Ops`, for DMARC) keeps the author in Reply-To:
  // the post's author is that address, as plain a sender as any From (issue 35, class 5).
  const via = forward === undefined && automated === undefined ? listAuthor(input, internal) : undefined;
  const author = trusted ? forward.sender : (via ?? input.from);

  let body: string;
  if (trusted && forward.attachment === undefined) {
    const lines = linesOf(input.body);
    const note = authorsLines(lines.slice(0, forward.block.firstLine)).kept;
    const quotedBlock = /^\s*>/.test(lines[forward.block.firstLine] ?? '') || /^\s*>/.test(lines[forward.block.endLine - 1] ?? '');
    const original = lines.slice(forward.block.endLine).map((line) => (quotedBlock ? line.replace(/^\s*> ?/, '') : line));
    body = [...note, ...authorsLines(original).kept].join('\n');
  } else if (forward !== undefined && forward.attachment === undefined) {
    // Forwarded by someone outside: the forwarded original, its header block and all below it, is quoted text
    // (anyone can type a customer's header block), even when only a forward's lone `From:` line opens it.
    body = authorsLines(headLines.slice(0, forward.block.firstLine)).kept.join('\n');
  } else {
    const head = input.body.length > FORWARD_SEARCHED ? input.body.slice(0, FORWARD_SEARCHED) : input.body;
    const { kept, whole } = authorsLines(headLines, head, headLines);
    // Past the searched head every line is the author's: the rest of the body as it is (its first piece ends the head's last line).
    body = whole && head.length < input.body.length ? `${kept.join('\n')}${input.body.slice(head.length)}` : kept.join('\n');
  }
  const attachments = input.attachments.flatMap((file, index) => {
    // A forwarded message is the author's only when the warehouse forwarded it (the forward itself).
    // A returned message's headers (a bounce's text/rfc822-headers) are the message that bounced, never the author's.
    if (file.mediaType === 'text/rfc822-headers' || file.mediaType.startsWith('message/')) {
      if (!(trusted && forward.attachment === index)) return [file.filename];
    }
    return file.text === undefined ? [file.filename] : [file.filename, file.text];
  });
  const subject =
    automated !== undefined && automated.kind !== 'notice'
      ? '' // an auto-reply or a bounce repeats the subject of the message it answers
      : forward !== undefined && !trusted && hasForwardPrefix(input.subject)
        ? '' // the forwarded original's subject, forwarded by someone outside
        : !trusted && REPLY_PREFIX.test(input.subject)
          ? '' // a reply's subject repeats the message it answers: quoted text, not the author's words
          : input.subject;
  // A look-alike of the forwarded sender's domain writes as an impostor: none of its words decide (its signature names the customer it imitates).
  const impostor = unverified !== undefined && forward !== undefined && !trusted && imitates(input.from.address, forward.sender.address);
  const own: MessageFields = impostor
    ? { from: '', subject: '', body: '', attachments: '' }
    : {
        // The address only: a display name is a claim anyone can type (a free-mail address named "Kestrel Pharma GmbH").
        from: unverified !== undefined || author.address === '' ? '' : `<${author.address}>`,
        subject,
        body,
        attachments: attachments.join('\n'),
      };
  const nobodys = nobodysBecause(input, automated, impostor ? unverified : undefined, internal);
  return {
    kind,
    automated: automated !== undefined,
    ...(automated === undefined ? {} : { kindBecause: automated.because }),
    author,
    ...(via === undefined ? {} : { via: input.from }),
    ...(nobodys === undefined ? {} : { nobodys }),
    ...(forwarded === undefined ? {} : { forward: forwarded }),
    ...(unverified === undefined ? {} : { unverified }),
    own,
    all,
  };
}

/** How far into a body quoted history is looked for; past it, every line counts as the author's. */
const SEARCHED = 64 * 1024;

/**
 * A body's lines without its quoted history: `>` lines and their attribution (`On … wrote:`), and
 * everything from a separator (`-----Original Message-----`, Outlook's rule) or a quoted header
 * block naming a sender (`From: … Sent: … Subject: …`) down, which is how top-posting mail
 * programs quote the message they answer.
 */
function authorsLines(lines: readonly string[], whole?: string, headLines?: readonly string[]): { kept: string[]; whole: boolean } {
  // `whole`: the text the lines were split from (by /\r?\n/), when the caller has it, and `headLines` its head's.
  const text = whole ?? lines.join('\n');
  const head = text.length > SEARCHED ? text.slice(0, SEARCHED) : text;
  let cut = lines.length;
  // Most bodies name no sender on a line of their own: skip reading them for header blocks at all.
  for (const block of mayHoldSenderLine(lines) ? quotedHeaderBlocks(head, false, headLines) : []) {
    if (block.sender !== undefined) {
      cut = block.firstLine;
      break;
    }
  }
  const kept: string[] = [];
  let searched = 0;
  for (let i = 0; i < cut; i += 1) {
    const line = lines[i] ?? '';
    searched += line.length + 1;
    if (searched > SEARCHED) {
      kept.push(...lines.slice(i, cut));
      return { kept, whole: cut === lines.length };
    }
    if (isSeparatorLine(line) && line.trim() !== '') return { kept, whole: false };
    if (QUOTED_LINE.test(line)) continue;
    // An attribution ends with a colon (on this line or, wrapped, the next): a plain look before the patterns.
    const colon = endsWithColon(line);
    if (
      (colon || endsWithColon(lines[i + 1] ?? '')) &&
      ((colon && ATTRIBUTION.test(line)) || (ATTRIBUTION_START.test(line) && ATTRIBUTION.test(`${line} ${lines[i + 1] ?? ''}`)))
    ) {
      const next = nextNonBlank(lines, i + 1);
      // `On … wrote:` with `>` lines under it quotes only those; without them (HTML turned into text), all that follows.
      if (next !== undefined && QUOTED_LINE.test(lines[next] ?? '')) continue;
      if (ATTRIBUTION_START.test(line)) return { kept, whole: false };
    }
    kept.push(line);
  }
  return { kept, whole: cut === lines.length };
}

const QUOTED_LINE = /^\s*>/;
/** A reply's subject prefix as mail programs write it (`Re:`, `RE :`, `AW:`, `SV:`, `Antw:`, `R:`, `Réf. :`), after a ticket or list tag. */
const REPLY_PREFIX = /^\s*(?:\[[^\]]{0,60}\]\s*)?(?:re|aw|sv|vs|r|rif|antw|antwort|odp|réf|ref|ynt|atb|vá|bls)\s?(?:\[\d{1,3}\]|\(\d{1,3}\))?\s?\.?\s?:/iu;
/** A line that may open a quoted header block (forwards.ts's sender labels). */
const SENDER_LINE = /^[>\s]*\**(?:from|von|de|da|van|från|fra|od|remitente|absender)\s?\**\s?:/iu;

/** Whether a line of the body's head may open a quoted header block: one anchored look a line. */
function mayHoldSenderLine(lines: readonly string[]): boolean {
  let searched = 0;
  for (const line of lines) {
    if (SENDER_LINE.test(line)) return true;
    searched += line.length + 1;
    if (searched > SEARCHED) return false;
  }
  return false;
}

/** Lines of a text, as `split(/\r?\n/)` gives them, without a regular expression when there is no CR (several times faster). */
export function linesOf(text: string): string[] {
  return text.includes('\r') ? text.split(/\r?\n/) : text.split('\n');
}
/** `On Tue, 27 Oct 2026 at 16:02, Intake <intake@…> wrote:` in the languages mail programs write it. */
// German and Dutch put the name after the verb (`Am … schrieb Intake:`).
const ATTRIBUTION =
  /^.{0,300}\b(?:wrote|writes|schrieb|a écrit|ha scritto|escribió|schreef|skrev|napisał|pisze|escreveu|kirjoitti)(?:\s[^:]{0,120})?\s*:\s*$/iu;
const ATTRIBUTION_START = /^\s*(?:on|am|le|il|el|op|den|d\.|w dniu|em|the)\s+\S/iu;

/** `line.trimEnd().endsWith(':')`, without copying the line. */
function endsWithColon(line: string): boolean {
  for (let i = line.length - 1; i >= 0; i -= 1) {
    const code = line.charCodeAt(i);
    if (code === 0x3a) return true;
    if (code !== 0x20 && code !== 0x09 && code !== 0x0d && code !== 0xa0) return false;
  }
  return false;
}

function nextNonBlank(lines: readonly string[], from: number): number | undefined {
  for (let i = from; i < lines.length && i < from + 3; i += 1) if ((lines[i] ?? '').trim() !== '') return i;
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// What kind of mail.

interface Automated {
  readonly kind: 'auto-reply' | 'delivery-report' | 'notice';
  readonly because: string;
}

/** Subjects of delivery reports, as MTAs write them (Postfix, Exim, Exchange, Gmail, Sendmail, qmail, translations). */
const BOUNCE_SUBJECT =
  /^\s*(?:undeliverable|undelivered mail returned to sender|delivery status notification|mail delivery failed|returned mail\b|failure notice|delivery failure|mail delivery failure|undeliverable mail|unzustellbar|nicht zustellbar|non remis|non recapitabile|no se puede entregar|onbestelbaar|kan inte levereras)/iu;
/** Subjects of auto-replies, in the languages mail programs write them. */
const AUTO_REPLY_SUBJECT =
  /^\s*(?:automatic reply|auto(?:matic)?[- ]?(?:reply|response)|autoreply|out of (?:the )?office|abwesenheitsnotiz|automatische antwort|réponse automatique|absence du bureau|risposta automatica|fuori sede|respuesta automática|fuera de la oficina|automatisch antwoord|afwezig|autosvar|frånvaro|automaattinen vastaus|odpowiedź automatyczna)\b/iu;
/** What a ticket system's acknowledgement says in its first lines. */
const ACKNOWLEDGEMENT =
  /\b(?:has been received|have received your|we received your|ticket (?:has been )?(?:created|opened)|request received|ticket received|this is an automated)\b/iu;
const DAEMON = /^(?:mailer-daemon|postmaster|mail-daemon|mailerdaemon)$/i;

function automatedBecause(input: EmailInput): Automated | undefined {
  const facts = input.headerFacts;
  const local = input.from.address.slice(0, Math.max(0, input.from.address.lastIndexOf('@')));
  const subject = input.subject;
  if (facts?.reportType?.toLowerCase() === 'delivery-status') {
    return {
      kind: 'delivery-report',
      because: `This is a delivery report (a bounce: a multipart/report of delivery status) from ${input.from.address || 'a mail server'}`,
    };
  }
  if (facts?.autoReplyHeader === 'X-MS-Exchange-Message-Is-Ndr' || DAEMON.test(local) || BOUNCE_SUBJECT.test(subject)) {
    return { kind: 'delivery-report', because: `This is a delivery report (a bounce) from ${input.from.address || 'a mail server'}` };
  }
  const auto = (facts?.autoSubmitted ?? '').toLowerCase();
  const precedence = (facts?.precedence ?? '').toLowerCase();
  if (AUTO_REPLY_SUBJECT.test(subject))
    return { kind: 'auto-reply', because: `This is an automatic reply (its subject begins "${subject.slice(0, 40).trim()}")` };
  if (auto.startsWith('auto-replied')) return { kind: 'auto-reply', because: 'This is an automatic reply (its Auto-Submitted header says auto-replied)' };
  if (facts?.autoReplyHeader !== undefined)
    return { kind: 'auto-reply', because: `This is an automatic reply (it carries the ${facts.autoReplyHeader} header)` };
  if (precedence === 'auto_reply') return { kind: 'auto-reply', because: 'This is an automatic reply (its Precedence header says auto_reply)' };
  if (facts?.ticketSystem !== undefined && (auto !== '' || ACKNOWLEDGEMENT.test(input.body.slice(0, 1000)) || ACKNOWLEDGEMENT.test(subject))) {
    return { kind: 'auto-reply', because: `This is an automatic reply from a ticket system (${facts.ticketSystem}) acknowledging a message` };
  }
  if (auto !== '') return { kind: 'notice', because: `This is an automated message (its Auto-Submitted header says ${auto.split(/[;\s]/)[0]})` };
  if (precedence === 'bulk' || precedence === 'junk')
    return { kind: 'notice', because: `This is an automated message (its Precedence header says ${precedence})` };
  return undefined;
}

/**
 * The author of a list's post whose From the list rewrote "via" itself: the `Reply-To` mailbox, when
 * the message carries list headers (RFC 2919 `List-Id`, RFC 2369 `List-*`), the display name says
 * "… via …" and the `Reply-To` is neither at the list's own domain nor the warehouse's own.
 */
function listAuthor(input: EmailInput, internal: InternalSenders): EmailSender | undefined {
  const facts = input.senderFacts;
  const replyTo = facts?.replyTo;
  if (replyTo === undefined || replyTo.address === '' || !VIA.test(input.from.name)) return undefined;
  if (facts?.listId === undefined && facts?.listPost === undefined && facts?.listHeaders !== true) return undefined;
  const listDomain = domainOfAddress(input.from.address);
  const authorDomain = domainOfAddress(replyTo.address);
  if (authorDomain === '' || authorDomain === listDomain || authorDomain.endsWith(`.${listDomain}`) || internal.has(replyTo.address)) return undefined;
  return replyTo;
}

/** Why a message is nobody's unless a lesson says otherwise (see MessageModel.nobodys). */
function nobodysBecause(input: EmailInput, automated: Automated | undefined, impostor: string | undefined, internal: InternalSenders): MessageModel['nobodys'] {
  if (automated !== undefined && (automated.kind === 'delivery-report' || automated.kind === 'auto-reply')) return { because: automated.because };
  if (impostor !== undefined) return { because: impostor };
  const quarantined = quarantinedBy(input, internal);
  if (quarantined !== undefined) return { because: quarantined };
  // A newsletter: bulk mail with an unsubscribe link. A portal's notice is bulk too, but names its customer or a reference.
  const precedence = (input.headerFacts?.precedence ?? '').toLowerCase();
  if (automated?.kind === 'notice' && (precedence === 'bulk' || precedence === 'junk') && input.senderFacts?.listHeaders === true) {
    return {
      because: `This is bulk mail with an unsubscribe link (a newsletter: Precedence ${precedence}, List-Unsubscribe) that names no customer and no reference`,
      whenNothingNamed: true,
    };
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Look-alike domains: `alder-chem.example.secure-invoice.invalid` forwarding `planning@alder-chem.example`.

function domainOfAddress(address: string): string {
  return address.slice(address.lastIndexOf('@') + 1).toLowerCase();
}

/**
 * Whether the sender's domain imitates the domain of the message it forwards: another domain that
 * holds the original's name (`alder-chem`, `kaufhaus-falkner`) but is neither it nor under it.
 */
function imitates(sender: string, original: string): boolean {
  const [ours, theirs] = [domainOfAddress(sender), domainOfAddress(original)];
  if (ours === '' || theirs === '' || ours === theirs || ours.endsWith(`.${theirs}`) || theirs.endsWith(`.${ours}`)) return false;
  const labels = theirs.split('.');
  // The original's name: its domain without the last label (`alder-chem.example` → `alder-chem`); a short name says too little.
  const name = labels.length >= 2 ? labels.slice(0, -1).join('.') : theirs;
  if (name.length < 5) return false;
  const at = ours.indexOf(name);
  if (at < 0) return false;
  const before = at === 0 ? '.' : ours[at - 1]!;
  const after = ours[at + name.length] ?? '.';
  return /[.-]/.test(before) && /[.-]/.test(after);
}

/** Why the sender may be an impostor, when it forwards, from outside, a message of a domain its own imitates. */
function imitatedBy(input: EmailInput, original: EmailSender | undefined, internal: InternalSenders): string | undefined {
  if (original === undefined || internal.has(input.from.address) || !imitates(input.from.address, original.address)) return undefined;
  return `The sender's domain ${domainOfAddress(input.from.address)} imitates ${domainOfAddress(original.address)}, the domain of the message it forwards, so the sender may be an impostor and nothing it writes decides`;
}

// ---------------------------------------------------------------------------------------------
// Authentication-Results (RFC 8601): only failures are believed. Anyone may write the header, but
// a forged "fail" only makes the agent ask, and a "pass" is never needed to decide.

interface Result {
  readonly method: string;
  readonly result: string;
  readonly props: ReadonlyMap<string, string>;
}

function failedAuthentication(input: EmailInput): string | undefined {
  const headers = input.headerFacts?.authenticationResults;
  if (headers === undefined || headers.length === 0) return undefined;
  const fromDomain = input.from.address.slice(input.from.address.lastIndexOf('@') + 1).toLowerCase();
  if (fromDomain === '') return undefined;
  for (const header of headers) {
    const results = resultsOf(header);
    const server = header.split(';')[0]?.trim() ?? 'the receiving server';
    const aligned = (domain: string | undefined) =>
      domain !== undefined && domain !== '' && (domain === fromDomain || fromDomain.endsWith(`.${domain}`) || domain.endsWith(`.${fromDomain}`));
    const domainOf = (value: string | undefined) => value?.slice(value.lastIndexOf('@') + 1).toLowerCase();
    const dmarc = results.filter(
      (r) => r.method === 'dmarc' && (r.props.get('header.from') === undefined || aligned(r.props.get('header.from')?.toLowerCase())),
    );
    if (dmarc.some((r) => r.result === 'fail')) return failure(fromDomain, 'DMARC fail', server);
    if (dmarc.some((r) => r.result === 'pass')) continue;
    const spf = results.filter((r) => r.method === 'spf' && aligned(domainOf(r.props.get('smtp.mailfrom'))));
    const dkim = results.filter((r) => r.method === 'dkim' && aligned(domainOf(r.props.get('header.d') ?? r.props.get('header.i'))));
    if ([...spf, ...dkim].some((r) => r.result === 'pass')) continue;
    if (spf.some((r) => r.result === 'fail')) return failure(fromDomain, 'SPF fail', server);
    if (dkim.some((r) => r.result === 'fail')) return failure(fromDomain, 'DKIM fail', server);
  }
  return undefined;
}

/**
 * Why the message is nobody's by its own domain's word: DMARC failed, and the domain's policy asks
 * for failing mail to be quarantined or rejected (`action=quarantine`, `p=reject` …), as the
 * warehouse's own receiving server reports (the topmost Authentication-Results, its authserv-id a
 * host under a configured internal domain: RFC 8601 §5 has that server remove any such header it
 * did not write). A forged header can only come from a server of the warehouse's; from anyone else
 * a failure still only makes the agent ask.
 */
function quarantinedBy(input: EmailInput, internal: InternalSenders): string | undefined {
  const header = input.headerFacts?.authenticationResults?.[0];
  if (header === undefined) return undefined;
  const server = (header.split(';')[0] ?? '').trim().toLowerCase();
  if (!/^[a-z0-9.-]{1,253}$/.test(server) || !internal.has(`postmaster@${server}`)) return undefined;
  const fromDomain = domainOfAddress(input.from.address);
  if (fromDomain === '') return undefined;
  for (const part of header.split(';').slice(1)) {
    const words = part.trim();
    const dmarc = /^dmarc\s*=\s*fail\b/i.exec(words);
    if (dmarc === null) continue;
    const headerFrom = /\bheader\.from\s*=\s*([^\s;()]+)/i.exec(words)?.[1]?.toLowerCase();
    if (headerFrom !== undefined && headerFrom !== fromDomain && !fromDomain.endsWith(`.${headerFrom}`)) continue;
    // Microsoft's `action=quarantine|reject`, Gmail's and OpenDMARC's `(p=REJECT …)` comment.
    const policy = /\baction\s*=\s*(quarantine|reject|oreject)\b/i.exec(words)?.[1] ?? /\bp\s*=\s*(quarantine|reject)\b/i.exec(words)?.[1];
    if (policy === undefined) continue;
    const asks = policy.toLowerCase() === 'quarantine' ? 'quarantined' : 'rejected';
    return `The sender's domain ${fromDomain} failed its DMARC check, and its owner asks for such mail to be ${asks} (as ${server.slice(0, 80)}, the warehouse's own server, reports): it is not the domain's mail`;
  }
  return undefined;
}

function failure(domain: string, what: string, server: string): string {
  return `The sender's domain ${domain} failed its authentication check (${what}, as ${server.slice(0, 80)} reports), so the sender may be forged and decides nothing`;
}

/** `spf=fail (comment) smtp.mailfrom=a.example; dmarc=fail header.from=b.example` → results with their properties. */
function resultsOf(header: string): Result[] {
  const plain = header.replace(/\([^()]*\)/g, ' ');
  return plain
    .split(';')
    .slice(1)
    .flatMap((part): Result[] => {
      const words = part
        .trim()
        .split(/\s+/)
        .filter((word) => word !== '');
      const first = /^([a-z0-9-]+)=([a-z0-9_-]+)$/i.exec(words[0] ?? '');
      if (first === null) return [];
      const props = new Map<string, string>();
      for (const word of words.slice(1)) {
        const at = word.indexOf('=');
        if (at > 0) props.set(word.slice(0, at).toLowerCase(), word.slice(at + 1).replace(/^"|"$/g, ''));
      }
      return [{ method: first[1]!.toLowerCase(), result: first[2]!.toLowerCase(), props }];
    });
}
