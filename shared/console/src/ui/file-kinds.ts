// A file's kind as people name it, in place of its media type.

const KINDS: ReadonlyMap<string, string> = new Map([
  ['message/rfc822', 'mail message'],
  ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'Excel workbook'],
  ['text/csv', 'CSV sheet'],
  ['text/plain', 'text'],
  ['application/pdf', 'PDF document'],
]);

/** "Excel workbook" for the long xlsx media type; an unknown type by its extension, or as itself. */
export function kindOf(mediaType: string, filename = ''): string {
  const known = KINDS.get(mediaType.split(';')[0]!.trim().toLowerCase());
  if (known) return known;
  const extension = /\.([a-z0-9]{1,8})$/i.exec(filename)?.[1];
  return extension ? `.${extension.toLowerCase()} file` : mediaType || 'file of unknown kind';
}
