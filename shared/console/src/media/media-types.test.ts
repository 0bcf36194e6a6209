import { describe, expect, it } from 'vitest';
import { acceptedMediaTypes, agentsAccepting, mediaTypeOf, modeCovers } from './media-types.ts';

const SHEET = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

describe('choosing the agent for a file, blind, from the cards', () => {
  it('names the media type of a file from its extension, case aside', () => {
    expect(mediaTypeOf('pre-alert.EML')).toBe('message/rfc822');
    expect(mediaTypeOf('week 42.xlsx')).toBe(SHEET);
    expect(mediaTypeOf('rows.csv')).toBe('text/csv');
    expect(mediaTypeOf('scan.pdf')).toBeUndefined();
    expect(mediaTypeOf('no-extension')).toBeUndefined();
  });

  it("reads an agent's media types from its skills, or from its defaults when no skill lists any", () => {
    expect(
      acceptedMediaTypes({ skills: [{ inputModes: ['message/rfc822'] }, { inputModes: ['Text/CSV; charset=utf-8'] }], defaultInputModes: ['text/plain'] }),
    ).toEqual(['message/rfc822', 'text/csv']);
    expect(acceptedMediaTypes({ skills: [{ inputModes: [] }], defaultInputModes: ['text/plain', 'application/json'] })).toEqual([
      'text/plain',
      'application/json',
    ]);
  });

  it('sends each file to the agents whose cards read its type, in the order they were configured', () => {
    const agents = [
      { id: 'a', accepts: ['message/rfc822'] },
      { id: 'b', accepts: [SHEET, 'text/csv'] },
      { id: 'c', accepts: ['text/*'] },
    ];
    expect(agentsAccepting(agents, 'message/rfc822').map((agent) => agent.id)).toEqual(['a']);
    expect(agentsAccepting(agents, SHEET).map((agent) => agent.id)).toEqual(['b']);
    expect(agentsAccepting(agents, 'text/csv').map((agent) => agent.id)).toEqual(['b', 'c']);
    expect(agentsAccepting(agents, 'application/pdf')).toEqual([]);
  });

  it('understands wildcards in input modes', () => {
    expect(modeCovers('*/*', 'application/pdf')).toBe(true);
    expect(modeCovers('text/*', 'text/csv')).toBe(true);
    expect(modeCovers('text/*', 'message/rfc822')).toBe(false);
  });
});
